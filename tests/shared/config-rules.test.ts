import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../backend/modules/config/keys';
import {
  CONFIG_RULES,
  CONFIG_SET_RULES,
  configRule,
  configSetProblems,
  configValueProblem,
  siteLinkProblem,
  usablePaymentProviders,
  yearProblem,
} from '../../shared/config-rules';

describe('config rules', () => {
  it('accept every seeded default', () => {
    const refused = CONFIG_KEYS.map(
      (k) => [`${k.category}.${k.name}`, configValueProblem(`${k.category}.${k.name}`, k.input_type, k.value)] as const,
    ).filter(([, problem]) => problem !== null);
    expect(refused).toEqual([]);
  });

  it('name only keys that exist', () => {
    const known = new Set(CONFIG_KEYS.map((k) => `${k.category}.${k.name}`));
    expect(Object.keys(CONFIG_RULES).filter((key) => !known.has(key))).toEqual([]);
  });

  it('give bounds to number keys only, int32 when the key has none', () => {
    expect(configRule('display.virtual_register_count', 'number')).toEqual({ min: 0, max: 2147483647 });
    expect(configRule('converter.max_preview_percent', 'number')).toMatchObject({ min: 1, max: 100 });
    expect(configRule('system.title', 'text')).toEqual({});
  });

  it.each([
    ['system.sitename', 'text', '   ', '不能为空'],
    ['system.sitename', 'text', '文'.repeat(101), '不能超过 100 个字符'],
    ['system.sitename', 'text', '\u202e', '不能只包含控制字符或文字方向符号'],
    ['score.credit_name', 'text', '\u2066\u0000\u2069', '不能只包含控制字符或文字方向符号'],
    ['vip.title', 'text', '\u202d\u0085', '不能只包含控制字符或文字方向符号'],
    [
      'system.copyright_start_year',
      'text',
      'abcd',
      `必须是 1900 到 ${new Date().getFullYear()} 之间的四位年份，例如 2019`,
    ],
    ['email.port', 'number', '70000', '必须在 1 到 65535 之间'],
    ['email.port', 'number', '', '不能为空'],
    [
      'email.host',
      'text',
      'smtp://smtp.example.com:465',
      '应为服务器的主机名或 IP 地址，例如 smtp.example.com（不含 smtp:// 和端口）',
    ],
    ['email.from_name', 'text', '文库\nBcc: x@example.com', '不能包含换行'],
    ['converter.max_preview_percent', 'number', '150', '必须在 1 到 100 之间'],
    ['converter.timeout', 'number', '0', '必须在 1 到 1440 之间'],
    ['captcha.length', 'number', '0', '必须在 1 到 12 之间'],
    ['pay.order_timeout', 'number', '0', '必须在 1 到 1440 分钟之间'],
    ['security.document_related_duration', 'number', '40000', '必须在 0 到 36500 天之间'],
    ['security.attachment_retention_minute', 'number', '-1', '必须在 0 到 5256000 分钟之间'],
    ['display.virtual_register_count', 'number', '-1', '不能为负数'],
    ['display.virtual_register_count', 'number', '2147483648', '不能大于 2147483647'],
    [
      'footer.about',
      'text',
      'javascript:alert(1)',
      '必须是 http:// 或 https:// 开头的网址，或以 / 开头的站内路径，例如 /article/detail/about',
    ],
  ])('refuse %s (%s) = %j', (key, inputType, value, problem) => {
    expect(configValueProblem(key, inputType, value)).toBe(problem);
  });

  it.each([
    ['system.copyright_start_year', 'text', ''],
    ['system.domain', 'text', ''],
    ['footer.about', 'text', ''],
    ['email.host', 'text', 'smtp.qq.com'],
    ['email.host', 'text', '192.168.1.20'],
    ['email.host', 'text', '::1'],
    ['converter.max_preview_percent', 'number', '1'],
    ['security.comment_interval', 'number', '0'],
    ['vip.plans', 'textarea', 'month|月度会员|30|30'],
  ])('accept %s (%s) = %j', (key, inputType, value) => {
    expect(configValueProblem(key, inputType, value)).toBeNull();
  });

  it('take http(s) addresses and single-slash site paths as links, nothing else', () => {
    for (const link of [
      '/article/detail/about',
      '/',
      'https://example.com',
      'http://example.com/contact?x=1#y',
      'HTTPS://EXAMPLE.COM',
    ]) {
      expect(siteLinkProblem(link), link).toBeNull();
    }
    for (const link of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      '//evil.example',
      '/\\evil.example',
      'https://',
      'https:///x',
      'data:text/html,x',
      'mailto:a@example.com',
      'article/about',
      '/a b',
    ]) {
      expect(siteLinkProblem(link), link).not.toBeNull();
    }
  });

  it('take years from 1900 to this year', () => {
    const now = new Date('2030-06-01T00:00:00Z');
    expect(yearProblem('1900', now)).toBeNull();
    expect(yearProblem('2030', now)).toBeNull();
    expect(yearProblem('2031', now)).toMatch(/^必须是 1900 到 2030/);
    expect(yearProblem('1899', now)).not.toBeNull();
    expect(yearProblem('19', now)).not.toBeNull();
  });

  it('offer the ways of paying chosen with their keys filled, none while payment is off', () => {
    const lookup = (values: Record<string, string>) => (key: string) => values[key] ?? '';
    const alipay = { 'pay.alipay_app_id': '2021', 'pay.alipay_private_key': 'k', 'pay.alipay_public_key': 'p' };
    expect(usablePaymentProviders(lookup({ 'pay.enable': 'true', 'pay.provider': 'alipay,wechat' }))).toEqual([]);
    expect(
      usablePaymentProviders(lookup({ 'pay.enable': 'true', 'pay.provider': 'wechat, alipay', ...alipay })),
    ).toEqual(['alipay']);
    expect(usablePaymentProviders(lookup({ 'pay.enable': 'false', 'pay.provider': 'alipay', ...alipay }))).toEqual([]);
    expect(
      usablePaymentProviders(
        lookup({ 'pay.enable': '1', 'pay.provider': 'manual', 'pay.manual_instructions': '转账' }),
      ),
    ).toEqual(['manual']);
  });

  it('refuse payment switched on with no usable way, under 支付方式, only when a key it reads changes', () => {
    const label = (key: string) =>
      ({ 'pay.enable': '是否启用支付', 'pay.manual_instructions': '线下转账说明' })[key] ?? key;
    const values: Record<string, string> = { 'pay.enable': 'true', 'pay.provider': 'manual' };
    const value = (key: string) => values[key] ?? '';
    expect(configSetProblems(value, label)).toEqual([
      {
        key: 'pay.provider',
        problem: '中没有可用的方式（线下转账需填写线下转账说明），会员将无法下单。请填写后再保存，或关闭是否启用支付',
      },
    ]);
    expect(configSetProblems(value, label, ['pay.manual_instructions'])).toHaveLength(1);
    expect(configSetProblems(value, label, ['system.sitename'])).toEqual([]);
    values['pay.manual_instructions'] = '转账至测试账户';
    expect(configSetProblems(value, label)).toEqual([]);
    values['pay.provider'] = '';
    expect(configSetProblems(value, label)[0]?.problem).toBe('不能为空：是否启用支付已开启，请至少选择一种支付方式');
    values['pay.enable'] = 'false';
    expect(configSetProblems(value, label)).toEqual([]);
  });

  it('read together only keys that exist, and accept the seeded defaults', () => {
    const known = new Map(CONFIG_KEYS.map((k) => [`${k.category}.${k.name}`, k.value]));
    expect(CONFIG_SET_RULES.flatMap((rule) => [rule.key, ...rule.reads]).filter((key) => !known.has(key))).toEqual([]);
    expect(
      configSetProblems(
        (key) => known.get(key) ?? '',
        (key) => key,
      ),
    ).toEqual([]);
  });
});
