import { message } from '../wire';

// The SMS admin screen's messages (ours, docs/api.md §6): the log with masked numbers,
// the counters against the limits, and the config page's test message.

export const SmsLog = message('SmsLog', {
  id: 'int64',
  mobile: 'string',
  purpose: 'string',
  provider: 'string',
  status: 'int32',
  error: 'string',
  biz_id: 'string',
  ip: 'string',
  created_at: 'time',
  updated_at: 'time',
});

export const ListSmsLogRequest = message('ListSmsLogRequest', {
  page: 'int64',
  size: 'int64',
  mobile: 'string',
  ip: 'string',
  purpose: 'string[]',
  provider: 'string[]',
  status: 'int32[]',
});
export const ListSmsLogReply = message('ListSmsLogReply', { total: 'int64', sms_log: [SmsLog] });

export const GetSmsStatsRequest = message('GetSmsStatsRequest', { mobile: 'string', ip: 'string' });
export const SmsStats = message('SmsStats', {
  enable: 'bool',
  provider: 'string',
  interval: 'int32',
  site_last_hour: 'int64',
  site_hourly_limit: 'int32',
  sent_last_day: 'int64',
  failed_last_day: 'int64',
  mobile_last_day: 'int64',
  mobile_daily_limit: 'int32',
  ip_last_hour: 'int64',
  ip_hourly_limit: 'int32',
});

export const SendTestSmsRequest = message('SendTestSmsRequest', { mobile: 'string' });
