// The SMS admin calls (ours, docs/api.md §6): the log of messages (numbers masked), the
// counters against the sending limits, and the config page's test message. Sending a test
// adds a log row and counts, so it makes both stale.
import { queryOptions } from '@tanstack/react-query';
import type { Empty } from '../../../../shared/types/common';
import type { GetSmsStatsRequest, ListSmsLogReply, ListSmsLogRequest, SmsStats } from '../../../../shared/types/sms';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

export const smsKeys = {
  all: ['sms'] as const,
  admin: ['sms', 'admin'] as const,
  stats: (request: GetSmsStatsRequest) => ['sms', 'stats', request.mobile ?? '', request.ip ?? ''] as const,
};

export const listSmsLog = (request: ListSmsLogRequest) =>
  api.get<ListSmsLogReply>('/api/v1/user/sms/list', { ...request });

export const smsStatsQuery = (request: GetSmsStatsRequest) =>
  queryOptions({
    queryKey: smsKeys.stats(request),
    queryFn: async () => unwrap(await api.get<SmsStats>('/api/v1/user/sms/stats', { ...request })),
    staleTime: 0,
  });

/** SendTestSms with the saved `sms` settings. */
export const sendTestSms = (mobile: string, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/config/sms/test', { mobile }), context, [smsKeys.all]);
