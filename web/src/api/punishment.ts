// PunishmentAPI (contract: endpoints.md, PunishmentAPI; types in §5.6). There is no delete:
// a punishment ends by being cancelled (enable = false) or by its end time.
import type { Empty } from '../../../shared/types/common';
import type { CreatePunishmentRequest, ListPunishmentReply, Punishment } from '../../../shared/types/punishment';
import { api } from './client';

export const punishmentApi = {
  list: (query: { page: number; size: number; wd?: string; type?: readonly number[]; enable?: readonly number[]; user_id?: readonly number[] }) =>
    api.get<ListPunishmentReply>('/api/v1/punishment/list', query),
  /** One row per user × type. */
  create: (request: CreatePunishmentRequest) => api.post<Empty>('/api/v1/punishment', request),
  /** Full replacement of the row. */
  update: (punishment: Punishment) => api.put<Empty>('/api/v1/punishment', punishment),
  cancel: (ids: readonly number[]) => api.put<Empty>('/api/v1/punishment/cancel', { id: ids }),
};
