import { message } from '../wire';
import { Language } from './language';

// ConfigAPI's messages: config rows, the public settings (docs/moredoc.md §10, plus our `vip`,
// `oauth`, `pay` and `sms` objects) and the dashboard's stats, environment and release.

export const Config = message('Config', {
  id: 'int64',
  label: 'string',
  name: 'string',
  value: 'string',
  placeholder: 'string',
  input_type: 'string',
  category: 'string',
  sort: 'int32',
  options: 'string',
  created_at: 'time',
  updated_at: 'time',
  col_num: 'int32',
});

export const Configs = message('Configs', { config: [Config] });
export const ListConfigRequest = message('ListConfigRequest', { category: 'string[]' });

export const ConfigSystem = message('ConfigSystem', {
  domain: 'string',
  title: 'string',
  keywords: 'string',
  description: 'string',
  logo: 'string',
  favicon: 'string',
  icp: 'string',
  analytics: 'string',
  sitename: 'string',
  copyright_start_year: 'string',
  register_background: 'string',
  login_background: 'string',
  recommend_words: 'string[]',
  version: 'string',
  credit_name: 'string',
  sec_icp: 'string',
  /** Ours: the credits a member loses for each document they delete (`score.delete_document`). */
  delete_document_credits: 'int32',
  /** Ours: the credits for each of a member's first `upload_document_limit` documents of the day, 0 when none. */
  upload_document_credits: 'int32',
  /** Ours: the documents a day that earn `upload_document_credits`, 0 when none do. */
  upload_document_limit: 'int32',
});
export const ConfigFooter = message('ConfigFooter', {
  about: 'string',
  contact: 'string',
  agreement: 'string',
  copyright: 'string',
  feedback: 'string',
  /** Ours: the 隐私政策 (docs/api.md §13.2). */
  privacy: 'string',
});
export const ConfigSecurity = message('ConfigSecurity', {
  is_close: 'bool',
  close_statement: 'string',
  enable_register: 'bool',
  enable_captcha_login: 'bool',
  enable_captcha_register: 'bool',
  enable_captcha_comment: 'bool',
  enable_captcha_find_password: 'bool',
  enable_captcha_upload: 'bool',
  max_document_size: 'int32',
  document_allowed_ext: 'string[]',
  login_required: 'bool',
  enable_verify_register_email: 'bool',
  enable_captcha_sms: 'bool',
  enable_captcha_feedback: 'bool',
});
export const ConfigDisplay = message('ConfigDisplay', {
  show_register_user_count: 'bool',
  show_index_categories: 'bool',
  pages_per_read: 'int32',
  copyright_statement: 'string',
  show_document_descriptions: 'bool',
  hide_keywords_on_lists: 'bool',
  show_document_count: 'bool',
  show_document_view_count: 'bool',
  show_document_download_count: 'bool',
  show_document_favorite_count: 'bool',
  hide_category_without_document: 'bool',
  wechat_tip: 'string',
  wechat_qrcode: 'string',
  contact_tip: 'string',
  contact_link: 'string',
  index_document_style: 'string',
  home_version: 'string',
  copy_text: 'string',
});
export const VipPlan = message('VipPlan', {
  code: 'string',
  title: 'string',
  days: 'int32',
  price: 'float',
  description: 'string',
  recommended: 'bool',
});
export const ConfigVip = message('ConfigVip', {
  enable: 'bool',
  title: 'string',
  description: 'string',
  plans: [VipPlan],
  free_download: 'bool',
  read_all_pages: 'bool',
  times_every_day: 'int32',
  benefits: 'string',
});
export const ConfigOauth = message('ConfigOauth', { wechat: 'bool', qq: 'bool' });
export const ConfigPay = message('ConfigPay', { enable: 'bool', provider: 'string', providers: 'string[]' });
export const ConfigSms = message('ConfigSms', { enable: 'bool' });
/** Ours: whether the site can send mail (on, with an SMTP server and account). */
export const ConfigEmail = message('ConfigEmail', { enable: 'bool' });

export const Settings = message('Settings', {
  system: ConfigSystem,
  footer: ConfigFooter,
  security: ConfigSecurity,
  display: ConfigDisplay,
  language: [Language],
  vip: ConfigVip,
  oauth: ConfigOauth,
  pay: ConfigPay,
  sms: ConfigSms,
  email: ConfigEmail,
});

export const Stats = message('Stats', {
  user_count: 'int64',
  document_count: 'int64',
  category_count: 'int64',
  article_count: 'int64',
  comment_count: 'int64',
  banner_count: 'int64',
  friendlink_count: 'int64',
  os: 'string',
  version: 'string',
  hash: 'string',
  build_at: 'string',
  report_count: 'int64',
  /** Ours, for holders of GetStats: the part of `user_count` that is 网站虚拟注册用户数, not accounts. */
  virtual_user_count: 'int64',
  /** Ours, for holders of GetStats: the conversions due and not running (a job is one file, of one or more documents). */
  conversion_waiting: 'int64',
  /** Ours: whole seconds since the oldest of them fell due, by the database's clock. */
  conversion_waiting_seconds: 'int64',
  /** Ours: the processes holding a live lease on a conversion; 0 while conversions wait means no worker takes them. */
  conversion_workers: 'int64',
});
export const EnvDependent = message('EnvDependent', {
  name: 'string',
  description: 'string',
  is_installed: 'bool',
  error: 'string',
  checked_at: 'time',
  cmd: 'string',
  is_required: 'bool',
  version: 'string',
});
export const Envs = message('Envs', { envs: [EnvDependent] });
/** Ours: what a new site still lacks (SetupItem names of shared/types/config.ts), in the dashboard's order. */
export const SetupChecklist = message('SetupChecklist', { missing: 'string[]' });
export const CPUInfo = message('CPUInfo', { cores: 'int32', model_name: 'string', mhz: 'float', percent: 'float' });
export const MemoryInfo = message('MemoryInfo', {
  total: 'int64',
  available: 'int64',
  used: 'int64',
  free: 'int64',
  percent: 'float',
});
export const DiskInfo = message('DiskInfo', {
  disk_name: 'string',
  total: 'int64',
  used: 'int64',
  free: 'int64',
  percent: 'float',
});
export const DeviceInfo = message('DeviceInfo', { cpu: CPUInfo, memory: MemoryInfo, disk: [DiskInfo] });
export const Release = message('Release', {
  tag_name: 'string',
  name: 'string',
  body: 'string',
  release_at: 'string',
  ignore: 'string',
  source: 'string',
  current: 'string',
});
