// Wire types of config (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as configMessages from '../messages/config';

/** Config categories: MOREDOC's (docs/moredoc.md §10), the three docs/product.md adds and our `sms`. */
export type ConfigCategory =
  | 'system'
  | 'captcha'
  | 'security'
  | 'footer'
  | 'converter'
  | 'download'
  | 'score'
  | 'email'
  | 'display'
  | 'release'
  | 'pay'
  | 'vip'
  | 'oauth'
  | 'sms';

export type ConfigInputType =
  'text' | 'textarea' | 'number' | 'switch' | 'select' | 'select-multi' | 'password' | 'image';

/**
 * One configuration row; `value` is always a string on the wire.
 * `sort`: Ascending within a category.
 * `options`: For select inputs: one `value:label` option per line.
 * `col_num`: Form width in a 24-column grid.
 */
export type Config = Wire<typeof configMessages.Config>;

export type ConfigSystem = Wire<typeof configMessages.ConfigSystem>;

export type ConfigFooter = Wire<typeof configMessages.ConfigFooter>;

/**
 * `max_document_size`: MB.
 * `enable_captcha_feedback`: Ours: visitors answer a captcha to send feedback.
 * `enable_captcha_sms`: Ours: the image captcha before an SMS code is sent.
 */
export type ConfigSecurity = Wire<typeof configMessages.ConfigSecurity>;

/**
 * `copy_text`: Ours: who may copy a document's text in the reader: `all`, `member`, `vip` or `none`.
 */
export type ConfigDisplay = Wire<typeof configMessages.ConfigDisplay>;

/**
 * One VIP membership plan (docs/api.md §1: `vip.plans`, one `code|title|days|price|description|1` per line).
 * `price`: In yuan.
 * `recommended`: Marked 推荐 on the VIP page.
 */
export type VipPlan = Wire<typeof configMessages.VipPlan>;

/**
 * Public part of our `vip` config category (docs/api.md §2).
 * `read_all_pages`: VIP members read every page of a document, past the preview.
 * `benefits`: HTML shown on the VIP page.
 */
export type ConfigVip = Wire<typeof configMessages.ConfigVip>;

/**
 * Public part of our `pay` config category: secrets never leave the backend.
 * `provider`: The first of `providers` (kept for clients of the first version).
 * `providers`: The ways of paying the checkout offers: chosen in `pay.provider` and configured.
 */
export type ConfigPay = Wire<typeof configMessages.ConfigPay>;

/** Social sign-in switches of docs/product.md §1 (both default false). */
export type ConfigOauth = Wire<typeof configMessages.ConfigOauth>;

/** Public part of our `sms` category: whether the mobile-number flows are offered. */
export type ConfigSms = Wire<typeof configMessages.ConfigSms>;

/** Ours: the site can send mail (password reset by e-mail, e-mail codes). */
export type ConfigEmail = Wire<typeof configMessages.ConfigEmail>;

/**
 * `GET /api/v1/settings` (docs/moredoc.md §10, plus the product's vip and oauth, and our pay and sms).
 * `language`: Enabled languages, only `id`, `language` and `code`.
 */
export type Settings = Wire<typeof configMessages.Settings>;

export type Stats = Wire<typeof configMessages.Stats>;

export type EnvDependent = Wire<typeof configMessages.EnvDependent>;

export type Envs = Wire<typeof configMessages.Envs>;

/**
 * What a new site may still lack (`GET /api/v1/setup/checklist`, ours): a document category,
 * uploads for members, mail, a way of paying, 网站域名, a new admin password, LibreOffice, calibre.
 */
export const SETUP_ITEMS = [
  'category',
  'upload',
  'mail',
  'payment',
  'domain',
  'home_title',
  'admin_password',
  'libreoffice',
  'calibre',
] as const;
export type SetupItem = (typeof SETUP_ITEMS)[number];

/** `missing`: the items still to do, in SETUP_ITEMS order; absent when nothing is left. */
// The backend names only SETUP_ITEMS: the dashboard looks each one up in its table.
export type SetupChecklist = Omit<Wire<typeof configMessages.SetupChecklist>, 'missing'> & { missing?: SetupItem[] };

export type CPUInfo = Wire<typeof configMessages.CPUInfo>;

export type MemoryInfo = Wire<typeof configMessages.MemoryInfo>;

export type DiskInfo = Wire<typeof configMessages.DiskInfo>;

export type DeviceInfo = Wire<typeof configMessages.DeviceInfo>;

/**
 * `source`: `none`, `auto`, `gitee` or `github`.
 */
export type Release = Wire<typeof configMessages.Release>;

export type Configs = Wire<typeof configMessages.Configs>;

export type ListConfigRequest = Wire<typeof configMessages.ListConfigRequest>;

/** `PUT /api/v1/config`: rows as listed, with edited `value`; updated by id. */
export type UpdateConfigRequest = Wire<typeof configMessages.Configs>;
