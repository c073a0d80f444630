// Wire types of the SMS admin screen (ours, docs/api.md §6).

import type { SmsPurpose } from '../constants';

/** One message sent or tried; `mobile` comes masked (`138****0000`). */
export interface SmsLog {
  id?: number;
  mobile?: string;
  purpose?: SmsPurpose | string;
  /** `log`, `aliyun` or `tencent`. */
  provider?: string;
  /** SmsStatus: 0 sending, 1 sent, 2 failed. */
  status?: number;
  /** The provider's reason when it failed. */
  error?: string;
  /** The provider's id of the message. */
  biz_id?: string;
  ip?: string;
  created_at?: string;
  updated_at?: string;
}

/** `GET /api/v1/user/sms/list`; `mobile` is a whole number (any usual spelling). */
export interface ListSmsLogRequest {
  page?: number;
  size?: number;
  mobile?: string;
  ip?: string;
  purpose?: string[];
  provider?: string[];
  status?: number[];
}

export interface ListSmsLogReply {
  total?: number;
  sms_log?: SmsLog[];
}

/** `GET /api/v1/user/sms/stats`: a number's and an address's counters too when given. */
export interface GetSmsStatsRequest {
  mobile?: string;
  ip?: string;
}

/** Messages counted against the limits of the `sms` config (last hour / last 24 hours). */
export interface SmsStats {
  enable?: boolean;
  provider?: string;
  /** Seconds between two messages to one number. */
  interval?: number;
  site_last_hour?: number;
  site_hourly_limit?: number;
  sent_last_day?: number;
  failed_last_day?: number;
  mobile_last_day?: number;
  mobile_daily_limit?: number;
  ip_last_hour?: number;
  ip_hourly_limit?: number;
}

/** `POST /api/v1/config/sms/test` (ConfigAPI): a test message with the saved settings. */
export interface SendTestSmsRequest {
  mobile: string;
}
