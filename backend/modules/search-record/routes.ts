import { IdsRequest } from '../../../shared/messages/common';
import { positiveIds, requireIds } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import { withUsernames } from '../user/service';
import { ListSearchRecordReply, ListSearchRecordRequest } from '../../../shared/messages/search-record';
import { schedulePurge } from './purge';
import { deleteSearchRecords, listSearchRecords } from './store';

// SearchRecordAPI: the search log for admins (who searched what, hits, time taken). Records
// are written by the search RPCs through service.ts and purged daily by purge.ts.

export const searchRecordService = defineService(
  'SearchRecordAPI',
  [
    rpc('DeleteSearchRecord', {
      http: 'DELETE /api/v1/searchrecord',
      request: IdsRequest('DeleteSearchRecordRequest'),
      auth: 'perm',
      permission: '删除搜索记录',
      async handler(req, ctx) {
        await deleteSearchRecords(ctx.db, requireIds(req.id, '搜索记录'));
        return {};
      },
    }),

    rpc('ListSearchRecord', {
      http: 'GET /api/v1/searchrecord/list',
      request: ListSearchRecordRequest,
      response: ListSearchRecordReply,
      auth: 'perm',
      permission: '获取搜索记录列表',
      async handler(req, ctx) {
        const { rows, total } = await listSearchRecords(ctx.db, {
          keywords: req.keywords,
          ip: req.ip,
          userIds: positiveIds(req.user_id),
          order: req.order,
          page: req.page,
          size: req.size,
        });
        return { search_record: await withUsernames(ctx.db, rows), total };
      },
    }),
  ],
  { routes: (_app, ctx) => schedulePurge(ctx) },
);
