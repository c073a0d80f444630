// Wire types of FeedbackAPI, ours (docs/api.md; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as feedbackMessages from '../messages/feedback';

/**
 * `user_id`: 0 for a visitor.
 * `content`: Plain text.
 * `contact`: How to reach the sender (e-mail, phone, QQ…), as typed.
 * `image`: An uploaded screenshot, `/uploads/…`.
 * `page`: The site path the sender wrote from.
 * `status`: 0 new, 1 handled.
 * `reply`: The admin's reply, shown to nobody else but admins.
 */
export type Feedback = Wire<typeof feedbackMessages.Feedback>;

/**
 * `captcha_id`: Visitors, when the security config asks (`GET /api/v1/user/captcha?type=feedback`).
 */
export type CreateFeedbackRequest = Wire<typeof feedbackMessages.CreateFeedbackRequest>;

export type UpdateFeedbackRequest = Wire<typeof feedbackMessages.UpdateFeedbackRequest>;

export type ListFeedbackRequest = Wire<typeof feedbackMessages.ListFeedbackRequest>;

export type ListFeedbackReply = Wire<typeof feedbackMessages.ListFeedbackReply>;

export type DeleteFeedbackRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;
