import { rpc } from '../../platform/rpc';
import { GetSmsStatsRequest, ListSmsLogReply, ListSmsLogRequest, SmsStats } from '../../../shared/messages/sms';
import { listSmsLog, smsStats } from '../sms/service';

// UserAPI, ours (docs/api.md §6): the SMS admin screen (/admin/user/sms, a page of the
// user management group). Numbers come masked; the message text never leaves the database.

export const smsLogRpcs = [
  rpc('ListSmsLog', {
    http: 'GET /api/v1/user/sms/list',
    request: ListSmsLogRequest,
    response: ListSmsLogReply,
    auth: 'perm',
    permission: '短信发送记录',
    async handler(req, ctx) {
      const { rows, total } = await listSmsLog(ctx.db, req);
      return { total, sms_log: rows };
    },
  }),

  rpc('GetSmsStats', {
    http: 'GET /api/v1/user/sms/stats',
    request: GetSmsStatsRequest,
    response: SmsStats,
    auth: 'perm',
    permission: '短信发送统计',
    async handler(req, ctx) {
      return smsStats(ctx.db, await ctx.app.settings.snapshot(), req, ctx.app.ipv6Prefix);
    },
  }),
];
