// Wire types of the SMS admin screen (ours, docs/api.md §6).

import type { Wire } from '../wire';
import type * as smsMessages from '../messages/sms';

/**
 * One message sent or tried; `mobile` comes masked (`138****0000`).
 * `provider`: `log`, `aliyun` or `tencent`.
 * `status`: SmsStatus: 0 sending, 1 sent, 2 failed.
 * `error`: The provider's reason when it failed.
 * `biz_id`: The provider's id of the message.
 */
export type SmsLog = Wire<typeof smsMessages.SmsLog>;

/** `GET /api/v1/user/sms/list`; `mobile` is a whole number (any usual spelling). */
export type ListSmsLogRequest = Wire<typeof smsMessages.ListSmsLogRequest>;

export type ListSmsLogReply = Wire<typeof smsMessages.ListSmsLogReply>;

/** `GET /api/v1/user/sms/stats`: a number's and an address's counters too when given. */
export type GetSmsStatsRequest = Wire<typeof smsMessages.GetSmsStatsRequest>;

/**
 * Messages counted against the limits of the `sms` config (last hour / last 24 hours).
 * `interval`: Seconds between two messages to one number.
 */
export type SmsStats = Wire<typeof smsMessages.SmsStats>;

/** `POST /api/v1/config/sms/test` (ConfigAPI): a test message with the saved settings. */
export type SendTestSmsRequest = Wire<typeof smsMessages.SendTestSmsRequest>;
