// Wire types of FeedbackAPI, ours (docs/api.md; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Feedback {
  id?: number;
  /** 0 for a visitor. */
  user_id?: number;
  username?: string;
  /** Plain text. */
  content?: string;
  /** How to reach the sender (e-mail, phone, QQ…), as typed. */
  contact?: string;
  /** An uploaded screenshot, `/uploads/…`. */
  image?: string;
  /** The site path the sender wrote from. */
  page?: string;
  /** 0 new, 1 handled. */
  status?: number;
  /** The admin's reply, shown to nobody else but admins. */
  reply?: string;
  ip?: string;
  handled_at?: string;
  created_at?: string;
  updated_at?: string;
}

export interface CreateFeedbackRequest {
  content: string;
  contact?: string;
  image?: string;
  page?: string;
  /** Visitors, when the security config asks (`GET /api/v1/user/captcha?type=feedback`). */
  captcha_id?: string;
  captcha?: string;
}

export interface UpdateFeedbackRequest { id: number; status?: number; reply?: string }

export interface ListFeedbackRequest extends PageRequest {
  status?: number[];
}

export interface ListFeedbackReply { total?: number; feedback?: Feedback[] }

export interface DeleteFeedbackRequest { id: number[] }
