import { IdsRequest } from '../../../shared/messages/common';
import { positiveIds } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import {
  ListMessageReply,
  ListMessageRequest,
  ReadMessageRequest,
  UnreadMessages,
} from '../../../shared/messages/message';
import { countUnread, deleteMessages, listMessages, markRead } from './store';

// MessageAPI (ours, docs/api.md §15): a member reads, marks and deletes their own messages;
// the header counts the unread ones. Nobody reads another member's messages.

const MAX_PAGE_SIZE = 100;

export const messageService = defineService('MessageAPI', [
  rpc('ListMessage', {
    http: 'GET /api/v1/message/list',
    request: ListMessageRequest,
    response: ListMessageReply,
    auth: 'login',
    async handler(req, ctx) {
      const me = ctx.requireUser();
      const size = req.size > 0 ? Math.min(req.size, MAX_PAGE_SIZE) : 10;
      const { rows, total } = await listMessages(ctx.db, me.id, { unread: req.unread, page: req.page, size });
      return { total, unread: await countUnread(ctx.db, me.id), message: rows };
    },
  }),

  rpc('GetUnreadMessages', {
    http: 'GET /api/v1/message/unread',
    response: UnreadMessages,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      return { count: await countUnread(ctx.db, ctx.requireUser().id) };
    },
  }),

  rpc('ReadMessage', {
    http: 'PUT /api/v1/message/read',
    request: ReadMessageRequest,
    auth: 'login',
    async handler(req, ctx) {
      await markRead(ctx.db, ctx.requireUser().id, positiveIds(req.id));
      return {};
    },
  }),

  rpc('DeleteMessage', {
    http: 'DELETE /api/v1/message',
    request: IdsRequest('DeleteMessageRequest'),
    auth: 'login',
    async handler(req, ctx) {
      await deleteMessages(ctx.db, ctx.requireUser().id, positiveIds(req.id));
      return {};
    },
  }),
]);
