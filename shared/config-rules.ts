// The rules of the admin's config values (docs/moredoc.md §10; ours: docs/api.md §1),
// applied by `PUT /api/v1/config` and by the config forms before anything is sent, so that
// both refuse the same values. Type checks (integer, switch, select options, image paths)
// stay with each side's input handling; these are the rules of the individual keys, and
// (CONFIG_SET_RULES) the rules of keys read together.
import { EMAIL_PATTERN, cleanName } from './validation';
import { PAYMENT_PROVIDERS, paymentProviderOptions, vipPlansProblem, type PaymentProviderName } from './vip';

export interface ConfigRule {
  /** An empty value breaks the site (the form's required mark; the server's `不能为空`). */
  required?: boolean;
  /** Bounds of a number key, inclusive; number keys without them take 0 to int32's maximum. */
  min?: number;
  max?: number;
  /** Said after the bounds: `必须在1到1440分钟之间`. */
  unit?: string;
  /** What is wrong with a non-blank value (trimmed), as the words after the field's label; null: fine. */
  check?: (value: string) => string | null;
  /**
   * A one-line name the site shows (its name, the credit's, the VIP page's heading): checked
   * and stored as cleaned like the names people write (`cleanName`: no control characters or
   * bidi overrides and isolates, line breaks as spaces, trimmed), so that a value of only such
   * characters is refused like a blank one.
   */
  name?: boolean;
}

/** The wire's int32: what the config's number values are read as. */
const INT32_MAX = 2147483647;
const NUMBER_DEFAULT: ConfigRule = { min: 0, max: INT32_MAX };

const range = (min: number, max: number, unit = ''): ConfigRule => ({ min, max, unit });
const matching = (pattern: RegExp, problem: string): ConfigRule => ({
  check: (v) => (pattern.test(v) ? null : problem),
});
const length = (value: string) => [...value].length;
const maxLength =
  (max: number) =>
  (v: string): string | null =>
    length(v) > max ? `不能超过 ${max} 个字符` : null;

/**
 * An http(s) address, or a path of this site starting with a single `/`: what a footer or
 * floating-bar link may point to. No `javascript:`, no `//host` or `/\host` (browsers read
 * both as another site), no spaces.
 */
export function siteLinkProblem(value: string): string | null {
  const web = /^https?:\/\/[^\s/?#\\]+[^\s\\]*$/i.test(value);
  const sitePath = /^\/(?![/\\])[^\s\\]*$/.test(value);
  return web || sitePath
    ? null
    : '必须是 http:// 或 https:// 开头的网址，或以 / 开头的站内路径，例如 /article/detail/about';
}

/** A four-digit year from 1900 to the current year. */
export function yearProblem(value: string, now = new Date()): string | null {
  return /^\d{4}$/.test(value) && Number(value) >= 1900 && Number(value) <= now.getFullYear()
    ? null
    : `必须是 1900 到 ${now.getFullYear()} 之间的四位年份，例如 2019`;
}

const siteLink: ConfigRule = { check: siteLinkProblem };
const email = (problem: string): ConfigRule => matching(EMAIL_PATTERN, problem);
const templateId = matching(/^[A-Za-z0-9_-]{1,64}$/, '只能包含英文字母、数字、下划线和短横线');

/** Rules by `category.name`; keys not listed have none beyond their input type. */
export const CONFIG_RULES: Readonly<Record<string, ConfigRule>> = {
  'system.sitename': { required: true, name: true, check: maxLength(100) },
  'system.domain': matching(
    /^https?:\/\/[^\s/]+(:\d+)?\/?$/,
    '必须是 http:// 或 https:// 开头的网站域名，例如 https://example.com',
  ),
  'system.copyright_start_year': { check: (v) => yearProblem(v) },
  // The captcha is drawn with these clamped to 1–12, 60–1000 and 20–400 (GetUserCaptcha).
  'captcha.length': range(1, 12),
  'captcha.width': range(60, 1000),
  'captcha.height': range(20, 400),
  // ≤ 0 means 50 MB to the server: the form would show a size that is not the one used.
  'security.max_document_size': range(1, 102_400),
  'security.comment_interval': range(0, 86_400),
  'security.document_related_duration': range(0, 36_500, '天'),
  'security.attachment_retention_minute': range(0, 5_256_000, '分钟'),
  'security.search_record_retention_days': range(0, 36_500, '天'),
  'footer.about': siteLink,
  'footer.contact': siteLink,
  'footer.agreement': siteLink,
  'footer.privacy': siteLink,
  'footer.copyright': siteLink,
  'footer.feedback': siteLink,
  'converter.max_preview_percent': range(1, 100),
  // The conversion stops at CONVERT_MAX_PAGES (10000 by default) anyway.
  'converter.max_preview': range(0, 10_000),
  // ≤ 0 means 30 to the server, and it allows at most a day.
  'converter.timeout': range(1, 1440),
  // Days back from now as a date: beyond a century the date is out of range.
  'download.free_download_duration': range(0, 36_500),
  // ≤ 0 means 60 seconds to the server.
  'download.url_duration': range(1, INT32_MAX),
  'score.credit_name': { required: true, name: true, check: maxLength(16) },
  'email.host': matching(
    /^([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/,
    '应为服务器的主机名或 IP 地址，例如 smtp.example.com（不含 smtp:// 和端口）',
  ),
  'email.port': range(1, 65535),
  'email.from_name': { check: (v) => (/[\r\n]/.test(v) ? '不能包含换行' : maxLength(64)(v)) },
  'email.username': email('应为发件邮箱地址'),
  'email.duration': range(1, 60),
  'email.test_email': email('不是有效的邮箱地址'),
  'display.pages_per_read': range(1, 100),
  // Search pages past 10000 are never served (SearchRecord's cap).
  'display.max_search_pages': range(0, 10_000),
  'display.contact_link': siteLink,
  'pay.order_timeout': range(1, 1440, '分钟'),
  'pay.manual_timeout': range(1, 30, '天'),
  'pay.notify_url': matching(
    /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
    '必须是 http(s):// 开头的网址（不含 ? 和 #），例如 https://example.com',
  ),
  'pay.return_url': matching(
    /^https?:\/\/[^\s/?#]+\/[^\s#]*$/,
    '必须是 http(s):// 开头的完整地址，例如 https://example.com/vip/checkout',
  ),
  'vip.title': { required: true, name: true, check: maxLength(64) },
  'vip.plans': { check: vipPlansProblem },
  'oauth.callback_url': matching(
    /^https?:\/\/[^\s/?#]+\/[^\s#]*$/,
    '必须是 http:// 或 https:// 开头的完整地址，例如 https://example.com/oauth/callback',
  ),
  'sms.interval': range(1, 3600),
  'sms.mobile_daily_limit': range(1, 1000),
  'sms.ip_hourly_limit': range(1, 100_000),
  'sms.site_hourly_limit': range(1, 1_000_000),
  'sms.template_register': templateId,
  'sms.template_login': templateId,
  'sms.template_find_password': templateId,
  'sms.template_bind': templateId,
  'sms.sdk_app_id': matching(/^\d{1,20}$/, '应为数字'),
  'sms.region': matching(/^[a-z]{2,}(-[a-z0-9]+)+$/, '格式应为 ap-guangzhou 这样的地域代码'),
  'sms.access_key_id': matching(/^[\x21-\x7e]{1,128}$/, '只能包含英文字母、数字和符号'),
};

/** The rule of a key, with the default bounds of number keys. */
/**
 * Keys kept for MOREDOC's own admin that nothing here reads: the converter picks SVG or WebP
 * per page, always stores SVG gzip-compressed and writes lean SVG itself. The API still lists
 * and stores them; our config forms leave them out rather than offer switches that do nothing.
 */
export const UNUSED_CONFIG_KEYS: ReadonlySet<string> = new Set([
  'converter.extension',
  'converter.enable_gzip',
  'converter.enable_svgo',
]);

export function configRule(key: string, inputType: string | undefined): ConfigRule {
  const rule = CONFIG_RULES[key] ?? {};
  return inputType === 'number' ? { ...NUMBER_DEFAULT, ...rule } : rule;
}

/**
 * The value of the key `category.name` as it is checked and stored: a name key's cleaned
 * (`cleanName`), a key with a format check's trimmed, any other as sent.
 */
export function configValueCleaned(key: string, value: string): string {
  const rule = CONFIG_RULES[key];
  if (rule?.name) return cleanName(value);
  return rule?.check ? value.trim() : value;
}

/**
 * What is wrong with `value` for the key `category.name` of this input type, as the words
 * after the field's label (`必须在1到100之间`); null when the rules accept it. A number value
 * must already be an integer. Blank values are checked against `required` only; a name key's
 * value that cleaning leaves empty, but that was not blank, is refused whether required or not.
 */
export function configValueProblem(key: string, inputType: string | undefined, value: string): string | null {
  const rule = configRule(key, inputType);
  const text = rule.name ? cleanName(value) : value.trim();
  if (text === '' && rule.name && value.trim() !== '') return '不能只包含控制字符或文字方向符号';
  if (text === '') return rule.required || inputType === 'number' ? '不能为空' : null;
  if (inputType === 'number') {
    const n = Number(text);
    const { min = 0, max = INT32_MAX, unit = '' } = rule;
    if (n >= min && n <= max) return null;
    if (min === 0 && max === INT32_MAX) return n < 0 ? '不能为负数' : `不能大于 ${max}`;
    return `必须在 ${min} 到 ${max} ${unit}之间`;
  }
  return rule.check?.(text) ?? null;
}

/** Go's ParseBool's true values: how the backend reads a switch. */
const TRUE_VALUES = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** A config value as stored, by `category.name`; '' for a key without a value. */
export type ConfigLookup = (key: string) => string;

/**
 * The `pay` keys (names) a way of paying needs before the checkout offers it; their contents
 * are checked when saved (the keys) or used. 线下转账 needs only the instructions the member reads.
 */
export const PAYMENT_REQUIRED_KEYS: Readonly<Record<PaymentProviderName, readonly string[]>> = {
  alipay: ['alipay_app_id', 'alipay_private_key', 'alipay_public_key'],
  wechat: [
    'wechat_app_id',
    'wechat_mch_id',
    'wechat_serial_no',
    'wechat_private_key',
    'wechat_api_v3_key',
    'wechat_public_key',
  ],
  manual: ['manual_instructions'],
};

const chosenProviders = (value: ConfigLookup): PaymentProviderName[] => {
  const chosen = value('pay.provider')
    .split(',')
    .map((s) => s.trim());
  return PAYMENT_PROVIDERS.filter((name) => chosen.includes(name));
};

const missingKeys = (value: ConfigLookup, provider: PaymentProviderName): string[] =>
  PAYMENT_REQUIRED_KEYS[provider].filter((name) => !value(`pay.${name}`).trim());

/**
 * The ways of paying the checkout offers, in our order: chosen in `pay.provider`, with every
 * required key filled; none while `pay.enable` is off.
 */
export function usablePaymentProviders(value: ConfigLookup): PaymentProviderName[] {
  if (!TRUE_VALUES.has(value('pay.enable').trim())) return [];
  return chosenProviders(value).filter((name) => missingKeys(value, name).length === 0);
}

/** A rule of several keys read together: its problem is shown under (and said after the label of) `key`. */
export interface ConfigSetRule {
  key: string;
  /** Every key the rule reads (a write of one of them is checked). */
  reads: readonly string[];
  /** The words after `key`'s label; `label` names another key for the message. null: fine. */
  check: (value: ConfigLookup, label: (key: string) => string) => string | null;
}

/** Payment switched on with nothing a member could pay with: every order would end in 暂未开放在线支付. */
function paymentProblem(value: ConfigLookup, label: (key: string) => string): string | null {
  if (!TRUE_VALUES.has(value('pay.enable').trim())) return null;
  const chosen = chosenProviders(value);
  const enable = label('pay.enable');
  if (!chosen.length) return `不能为空：${enable}已开启，请至少选择一种支付方式`;
  if (usablePaymentProviders(value).length) return null;
  const name = (provider: PaymentProviderName) =>
    paymentProviderOptions.find((o) => o.value === provider)?.label ?? provider;
  const needs = chosen.map(
    (provider) =>
      `${name(provider)}需填写${missingKeys(value, provider)
        .map((k) => label(`pay.${k}`))
        .join('、')}`,
  );
  return `中没有可用的方式（${needs.join('；')}），会员将无法下单。请填写后再保存，或关闭${enable}`;
}

export const CONFIG_SET_RULES: readonly ConfigSetRule[] = [
  {
    key: 'pay.provider',
    reads: [
      'pay.enable',
      'pay.provider',
      ...Object.values(PAYMENT_REQUIRED_KEYS)
        .flat()
        .map((name) => `pay.${name}`),
    ],
    check: paymentProblem,
  },
];

/**
 * The problems of the rules reading any of `changed` keys (all rules without it), by the key
 * they are shown under, as the words after that key's label.
 */
export function configSetProblems(
  value: ConfigLookup,
  label: (key: string) => string,
  changed?: readonly string[],
): { key: string; problem: string }[] {
  return CONFIG_SET_RULES.filter((rule) => !changed || rule.reads.some((key) => changed.includes(key)))
    .map((rule) => ({ key: rule.key, problem: rule.check(value, label) }))
    .filter((p): p is { key: string; problem: string } => p.problem !== null);
}
