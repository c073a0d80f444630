// Wire types of config (docs/moredoc.md §12; conventions in ./common.ts).

import type { Language } from './language';

/** Config categories: MOREDOC's (docs/moredoc.md §10), the three docs/product.md adds and our `sms`. */
export type ConfigCategory =
  | 'system' | 'captcha' | 'security' | 'footer' | 'converter' | 'download' | 'score' | 'email' | 'display' | 'release'
  | 'pay' | 'vip' | 'oauth' | 'sms';

export type ConfigInputType = 'text' | 'textarea' | 'number' | 'switch' | 'select' | 'select-multi' | 'password' | 'image';

/** One configuration row; `value` is always a string on the wire. */
export interface Config {
  id?: number;
  label?: string;
  name?: string;
  value?: string;
  placeholder?: string;
  input_type?: ConfigInputType | string;
  category?: ConfigCategory | string;
  /** Ascending within a category. */
  sort?: number;
  /** For select inputs: one `value:label` option per line. */
  options?: string;
  /** Form width in a 24-column grid. */
  col_num?: number;
  created_at?: string;
  updated_at?: string;
}

export interface ConfigSystem {
  domain?: string;
  title?: string;
  keywords?: string;
  description?: string;
  logo?: string;
  favicon?: string;
  icp?: string;
  analytics?: string;
  sitename?: string;
  copyright_start_year?: string;
  register_background?: string;
  login_background?: string;
  recommend_words?: string[];
  version?: string;
  credit_name?: string;
  sec_icp?: string;
}

export interface ConfigFooter {
  about?: string;
  contact?: string;
  agreement?: string;
  copyright?: string;
  feedback?: string;
}

export interface ConfigSecurity {
  is_close?: boolean;
  close_statement?: string;
  enable_register?: boolean;
  enable_captcha_login?: boolean;
  enable_captcha_register?: boolean;
  enable_captcha_comment?: boolean;
  enable_captcha_find_password?: boolean;
  enable_captcha_upload?: boolean;
  /** MB. */
  max_document_size?: number;
  document_allowed_ext?: string[];
  login_required?: boolean;
  enable_verify_register_email?: boolean;
  /** Ours: visitors answer a captcha to send feedback. */
  enable_captcha_feedback?: boolean;
  /** Ours: the image captcha before an SMS code is sent. */
  enable_captcha_sms?: boolean;
}

export interface ConfigDisplay {
  show_register_user_count?: boolean;
  show_index_categories?: boolean;
  pages_per_read?: number;
  copyright_statement?: string;
  show_document_descriptions?: boolean;
  hide_keywords_on_lists?: boolean;
  show_document_count?: boolean;
  show_document_view_count?: boolean;
  show_document_download_count?: boolean;
  show_document_favorite_count?: boolean;
  hide_category_without_document?: boolean;
  wechat_tip?: string;
  wechat_qrcode?: string;
  contact_tip?: string;
  contact_link?: string;
  index_document_style?: string;
  home_version?: string;
  /** Ours: who may copy a document's text in the reader: `all`, `member`, `vip` or `none`. */
  copy_text?: string;
}

/** Captcha rendering (not public; `GET /api/v1/config/list?category=captcha`). */
export interface ConfigCaptcha {
  length?: number;
  width?: number;
  height?: number;
  /** `digit`, `string`, `math` or `audio`. */
  type?: string;
}

/** One VIP membership plan (docs/api.md §1: `vip.plans`, one `code|title|days|price|description|1` per line). */
export interface VipPlan {
  code?: string;
  title?: string;
  days?: number;
  /** In yuan. */
  price?: number;
  description?: string;
  /** Marked 推荐 on the VIP page. */
  recommended?: boolean;
}

/** Public part of our `vip` config category (docs/api.md §2). */
export interface ConfigVip {
  enable?: boolean;
  title?: string;
  description?: string;
  plans?: VipPlan[];
  free_download?: boolean;
  /** VIP members read every page of a document, past the preview. */
  read_all_pages?: boolean;
  times_every_day?: number;
  /** HTML shown on the VIP page. */
  benefits?: string;
}

/** Public part of our `pay` config category: secrets never leave the backend. */
export interface ConfigPay {
  enable?: boolean;
  /** The first of `providers` (kept for clients of the first version). */
  provider?: string;
  /** The ways of paying the checkout offers: chosen in `pay.provider` and configured. */
  providers?: string[];
}

/** Social sign-in switches of docs/product.md §1 (both default false). */
export interface ConfigOauth {
  wechat?: boolean;
  qq?: boolean;
}

/** Public part of our `sms` category: whether the mobile-number flows are offered. */
export interface ConfigSms {
  enable?: boolean;
}

/** Ours: the site can send mail (password reset by e-mail, e-mail codes). */
export interface ConfigEmail {
  enable?: boolean;
}

/** `GET /api/v1/settings` (docs/moredoc.md §10, plus the product's vip and oauth, and our pay and sms). */
export interface Settings {
  system?: ConfigSystem;
  footer?: ConfigFooter;
  security?: ConfigSecurity;
  display?: ConfigDisplay;
  /** Enabled languages, only `id`, `language` and `code`. */
  language?: Language[];
  vip?: ConfigVip;
  oauth?: ConfigOauth;
  pay?: ConfigPay;
  sms?: ConfigSms;
  email?: ConfigEmail;
}

export interface Stats {
  user_count?: number;
  document_count?: number;
  category_count?: number;
  article_count?: number;
  comment_count?: number;
  banner_count?: number;
  friendlink_count?: number;
  report_count?: number;
  os?: string;
  version?: string;
  hash?: string;
  build_at?: string;
}

export interface EnvDependent {
  name?: string;
  description?: string;
  is_installed?: boolean;
  error?: string;
  checked_at?: string;
  cmd?: string;
  is_required?: boolean;
  version?: string;
}

export interface Envs {
  envs?: EnvDependent[];
}

/**
 * What a new site may still lack (`GET /api/v1/setup/checklist`, ours): a document category,
 * uploads for members, mail, a way of paying, 网站域名, a new admin password, LibreOffice, calibre.
 */
export const SETUP_ITEMS = ['category', 'upload', 'mail', 'payment', 'domain', 'admin_password', 'libreoffice', 'calibre'] as const;
export type SetupItem = (typeof SETUP_ITEMS)[number];

export interface SetupChecklist {
  /** The items still to do, in SETUP_ITEMS order; absent when nothing is left. */
  missing?: SetupItem[];
}

export interface CPUInfo {
  cores?: number;
  model_name?: string;
  mhz?: number;
  percent?: number;
}

export interface MemoryInfo {
  total?: number;
  available?: number;
  used?: number;
  free?: number;
  percent?: number;
}

export interface DiskInfo {
  disk_name?: string;
  total?: number;
  used?: number;
  free?: number;
  percent?: number;
}

export interface DeviceInfo {
  cpu?: CPUInfo;
  memory?: MemoryInfo;
  disk?: DiskInfo[];
}

export interface Release {
  tag_name?: string;
  name?: string;
  body?: string;
  release_at?: string;
  ignore?: string;
  /** `none`, `auto`, `gitee` or `github`. */
  source?: string;
  current?: string;
}

export interface Configs {
  config?: Config[];
}

export interface ListConfigRequest { category: (ConfigCategory | string)[] }

/** `PUT /api/v1/config`: rows as listed, with edited `value`; updated by id. */
export type UpdateConfigRequest = Configs;
