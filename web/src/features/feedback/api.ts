// FeedbackAPI (ours, docs/api.md §12): anyone sends feedback (with a screenshot uploaded
// through `POST /api/v1/upload/feedback`), admins list, handle with a reply and delete.
// Every write marks every feedback query stale.
import type { UploadImageReply } from '../../../../shared/types/attachment';
import type { Empty } from '../../../../shared/types/common';
import type { CreateFeedbackRequest, ListFeedbackReply, ListFeedbackRequest } from '../../../../shared/types/feedback';
import { api } from '../../api/client';
import { invalidateAfter, writeEach, type WriteContext } from '../../api/query-client';
import type { ImageUploadTarget } from '../../kit/image-upload/ImageUploadInput';

export const feedbackKeys = { all: ['feedback'] as const, admin: ['feedback', 'admin'] as const };

export const listFeedback = (query: ListFeedbackRequest) =>
  api.get<ListFeedbackReply>('/api/v1/feedback/list', { ...query });

const stale = [feedbackKeys.all];

export const sendFeedback = (request: CreateFeedbackRequest, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/feedback', request), context, stale);
export const handleFeedback = (id: number, status: number, reply: string, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/feedback', { id, status, reply }), context, stale);
/** Gives each the same reply and status: UpdateFeedback takes one id, so one call each (`writeEach`). */
export const handleFeedbacks = (ids: readonly number[], status: number, reply: string, context: WriteContext) =>
  writeEach(ids, (id) => api.put<Empty>('/api/v1/feedback', { id, status, reply }), context, stale);
export const deleteFeedback = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/feedback', { id: ids }), context, stale);

/** The screenshot field's upload: open to visitors too (a few an hour per address). */
export const screenshotUploadTarget: ImageUploadTarget = {
  kind: 'feedback',
  upload: (file) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<UploadImageReply>('/api/v1/upload/feedback', form);
  },
};
