// MessageAPI (ours, docs/api.md §15): the member's 消息 centre. The unread count is read by the
// header on every screen and refreshed every minute and when the member comes back to the tab;
// reading or deleting messages makes the lists and the count stale. Kept under the user's keys,
// which a logout drops.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { ListMessageReply, UnreadMessages } from '../../../../shared/types/message';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { userKeys } from '../user/api';

const UNREAD_REFRESH_MS = 60_000;

export const messageKeys = {
  all: [...userKeys.all, 'message'] as const,
  unread: (userId: number) => [...userKeys.all, 'message', 'unread', userId] as const,
  list: (userId: number, page: number, size: number, unreadOnly: boolean) =>
    [...userKeys.all, 'message', 'list', userId, page, size, unreadOnly] as const,
};

export const unreadMessagesQuery = (userId: number) =>
  queryOptions({
    queryKey: messageKeys.unread(userId),
    queryFn: async () => unwrap(await api.get<UnreadMessages>('/api/v1/message/unread')).count ?? 0,
    refetchInterval: UNREAD_REFRESH_MS,
    // Back in the tab (a reply or a review may have come meanwhile), the count is read again at once.
    refetchOnWindowFocus: 'always',
  });

export const messagesQuery = (userId: number, page: number, size: number, unreadOnly: boolean) =>
  queryOptions({
    queryKey: messageKeys.list(userId, page, size, unreadOnly),
    queryFn: async () =>
      unwrap(
        await api.get<ListMessageReply>('/api/v1/message/list', {
          page,
          size,
          ...(unreadOnly ? { unread: true } : {}),
        }),
      ),
    staleTime: 0,
  });

/** Marks these messages read, or every message when `ids` is empty. */
export const readMessages = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/message/read', { id: ids }), context, [messageKeys.all]);

export const deleteMessages = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/message', { id: ids }), context, [messageKeys.all]);
