// PunishmentAPI (contract: endpoints.md, PunishmentAPI; types in §5.6). There is no delete:
// a punishment ends by being cancelled (enable = false) or by its end time. Every write marks
// the punishment lists stale, and the admin's user lists, which show who is disabled.
import type { Empty } from '../../../../shared/types/common';
import type { CreatePunishmentRequest, ListPunishmentReply, Punishment } from '../../../../shared/types/punishment';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { userKeys } from '../user/api';

/** Punishment type 1 (禁用账户) makes an account 禁用. */
const DISABLE_ACCOUNT = 1;
/** The most rows one list call returns. */
const MAX_LIST_SIZE = 1000;

export const punishmentKeys = { all: ['punishment'] as const, admin: ['punishment', 'admin'] as const };

export const listPunishments = (query: {
  page: number;
  size: number;
  wd?: string;
  type?: readonly number[];
  enable?: readonly number[];
  user_id?: readonly number[];
}) => api.get<ListPunishmentReply>('/api/v1/punishment/list', query);

/** 生效中 while enabled and not past its end time. */
export function isActive(row: Punishment, now = Date.now()): boolean {
  return row.enable === true && (!row.end_time || Date.parse(row.end_time) > now);
}

/** Users under an active 禁用账户 punishment (the user model has no status column). */
export async function disabledUserIds(): Promise<Set<number>> {
  const data = unwrap(await listPunishments({ page: 1, size: MAX_LIST_SIZE, type: [DISABLE_ACCOUNT], enable: [1] }));
  const now = Date.now();
  return new Set((data.punishment ?? []).filter((p) => isActive(p, now)).map((p) => p.user_id ?? 0));
}

const stale = [punishmentKeys.all, userKeys.admin];

/** One row per user × type. */
export const createPunishments = (request: CreatePunishmentRequest, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/punishment', request), context, stale);

/** Full replacement of the row. */
export const updatePunishment = (punishment: Punishment, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/punishment', punishment), context, stale);

export const cancelPunishments = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/punishment/cancel', { id: ids }), context, stale);
