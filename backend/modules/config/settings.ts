import type { Database } from '../../db';
import type { ConfigSnapshot } from '../../platform/config-store';
import { message } from '../../wire/message';
import { Language } from '../../wire/messages';

// The public `GET /api/v1/settings` view (config-keys.md §3) plus our `vip`, `oauth` and
// `pay` objects (docs/api.md). Secrets never appear here.

const ConfigSystem = message('ConfigSystem', {
  domain: 'string', title: 'string', keywords: 'string', description: 'string', logo: 'string', favicon: 'string',
  icp: 'string', analytics: 'string', sitename: 'string', copyright_start_year: 'string', register_background: 'string',
  login_background: 'string', recommend_words: 'string[]', version: 'string', credit_name: 'string', sec_icp: 'string',
});
const ConfigFooter = message('ConfigFooter', { about: 'string', contact: 'string', agreement: 'string', copyright: 'string', feedback: 'string' });
const ConfigSecurity = message('ConfigSecurity', {
  is_close: 'bool', close_statement: 'string', enable_register: 'bool', enable_captcha_login: 'bool',
  enable_captcha_register: 'bool', enable_captcha_comment: 'bool', enable_captcha_find_password: 'bool',
  enable_captcha_upload: 'bool', max_document_size: 'int32', document_allowed_ext: 'string[]', login_required: 'bool',
  enable_verify_register_email: 'bool',
});
const DISPLAY_SWITCHES = [
  'show_register_user_count', 'show_index_categories', 'show_document_descriptions', 'hide_keywords_on_lists',
  'show_document_count', 'show_document_view_count', 'show_document_download_count', 'show_document_favorite_count',
  'hide_category_without_document',
] as const;
const ConfigDisplay = message('ConfigDisplay', {
  show_register_user_count: 'bool', show_index_categories: 'bool', pages_per_read: 'int32', copyright_statement: 'string',
  show_document_descriptions: 'bool', hide_keywords_on_lists: 'bool', show_document_count: 'bool',
  show_document_view_count: 'bool', show_document_download_count: 'bool', show_document_favorite_count: 'bool',
  hide_category_without_document: 'bool', wechat_tip: 'string', wechat_qrcode: 'string', contact_tip: 'string',
  contact_link: 'string', index_document_style: 'string', home_version: 'string',
});
export const VipPlan = message('VipPlan', { code: 'string', title: 'string', days: 'int32', price: 'float', description: 'string' });
const ConfigVip = message('ConfigVip', { enable: 'bool', title: 'string', description: 'string', plans: [VipPlan], free_download: 'bool', times_every_day: 'int32', benefits: 'string' });
const ConfigOauth = message('ConfigOauth', { wechat: 'bool', qq: 'bool' });
const ConfigPay = message('ConfigPay', { enable: 'bool', provider: 'string' });

export const Settings = message('Settings', {
  system: ConfigSystem, footer: ConfigFooter, security: ConfigSecurity, display: ConfigDisplay, language: [Language],
  vip: ConfigVip, oauth: ConfigOauth, pay: ConfigPay,
});

/** Only the inner text of `<script>` elements when there are any (MOREDOC's analytics rule). */
export function analyticsSnippet(value: string): string {
  const scripts = [...value.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => (m[1] ?? '').trim());
  return scripts.length ? scripts.join('\n') : value;
}

export interface VipPlanValue { code: string; title: string; days: number; price: number; description: string }

/** `vip.plans`: one plan per line, `code|title|days|price in yuan|description`. Bad lines are skipped. */
export function parseVipPlans(value: string): VipPlanValue[] {
  const plans: VipPlanValue[] = [];
  for (const line of value.split('\n')) {
    const [code = '', title = '', days = '', price = '', ...rest] = line.split('|').map((s) => s.trim());
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(code) || !title || !/^\d{1,5}$/.test(days) || !/^\d{1,7}(\.\d{1,2})?$/.test(price)) continue;
    if (Number(days) <= 0 || plans.some((p) => p.code === code)) continue;
    plans.push({ code, title, days: Number(days), price: Number(price), description: rest.join('|') });
  }
  return plans;
}

export async function buildSettings(db: Database, cfg: ConfigSnapshot, version: string) {
  const s = (name: string) => cfg.str('system', name);
  const language = await db.selectFrom('language').select(['id', 'language', 'code']).where('enable', '=', 1)
    .orderBy('enable', 'desc').orderBy('sort', 'desc').orderBy('id', 'asc').execute();
  const maxSize = cfg.int('security', 'max_document_size');
  return {
    system: {
      domain: s('domain'), title: s('title'), keywords: s('keywords'), description: s('description'), logo: s('logo'),
      favicon: s('favicon'), icp: s('icp'), analytics: analyticsSnippet(s('analytics')), sitename: s('sitename'),
      copyright_start_year: s('copyright_start_year'), register_background: s('register_background'),
      login_background: s('login_background'), recommend_words: cfg.list('system', 'recommend_words'), version,
      credit_name: cfg.str('score', 'credit_name'), sec_icp: s('sec_icp'),
    },
    footer: Object.fromEntries(['about', 'contact', 'agreement', 'copyright', 'feedback'].map((k) => [k, cfg.str('footer', k)])),
    security: {
      ...Object.fromEntries(['is_close', 'enable_register', 'enable_captcha_login', 'enable_captcha_register', 'enable_captcha_comment',
        'enable_captcha_find_password', 'login_required', 'enable_verify_register_email'].map((k) => [k, cfg.bool('security', k)])),
      close_statement: cfg.str('security', 'close_statement'),
      max_document_size: maxSize > 0 ? maxSize : 50,
      document_allowed_ext: cfg.list('security', 'document_allowed_ext'),
    },
    display: {
      ...Object.fromEntries(DISPLAY_SWITCHES.map((k) => [k, cfg.bool('display', k)])),
      ...Object.fromEntries(['copyright_statement', 'wechat_tip', 'wechat_qrcode', 'contact_tip', 'contact_link',
        'index_document_style', 'home_version'].map((k) => [k, cfg.str('display', k)])),
      pages_per_read: cfg.int('display', 'pages_per_read'),
    },
    language,
    vip: {
      enable: cfg.bool('vip', 'enable'), title: cfg.str('vip', 'title'), description: cfg.str('vip', 'description'), plans: parseVipPlans(cfg.str('vip', 'plans')), free_download: cfg.bool('vip', 'free_download'),
      times_every_day: cfg.int('vip', 'times_every_day'), benefits: cfg.str('vip', 'benefits'),
    },
    oauth: { wechat: cfg.bool('oauth', 'wechat'), qq: cfg.bool('oauth', 'qq') },
    pay: { enable: cfg.bool('pay', 'enable'), provider: cfg.str('pay', 'provider') },
  };
}
