import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../backend/modules/config/keys';
import { CONFIG_RULES, configRule, configValueProblem, siteLinkProblem, yearProblem } from '../../shared/config-rules';

describe('config rules', () => {
  it('accept every seeded default', () => {
    const refused = CONFIG_KEYS.map((k) => [`${k.category}.${k.name}`, configValueProblem(`${k.category}.${k.name}`, k.input_type, k.value)] as const)
      .filter(([, problem]) => problem !== null);
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
    ['system.sitename', 'text', '文'.repeat(101), '不能超过100个字符'],
    ['system.copyright_start_year', 'text', 'abcd', `必须是 1900 到 ${new Date().getFullYear()} 之间的四位年份，例如 2019`],
    ['email.port', 'number', '70000', '必须在1到65535之间'],
    ['email.port', 'number', '', '不能为空'],
    ['email.host', 'text', 'smtp://smtp.example.com:465', '应为服务器的主机名或 IP 地址，例如 smtp.example.com（不含 smtp:// 和端口）'],
    ['email.from_name', 'text', '文库\nBcc: x@example.com', '不能包含换行'],
    ['converter.max_preview_percent', 'number', '150', '必须在1到100之间'],
    ['converter.timeout', 'number', '0', '必须在1到1440之间'],
    ['captcha.length', 'number', '0', '必须在1到12之间'],
    ['pay.order_timeout', 'number', '0', '必须在1到1440分钟之间'],
    ['display.virtual_register_count', 'number', '-1', '不能为负数'],
    ['display.virtual_register_count', 'number', '2147483648', '不能大于2147483647'],
    ['footer.about', 'text', 'javascript:alert(1)', '必须是 http:// 或 https:// 开头的网址，或以 / 开头的站内路径，例如 /article/detail/about'],
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
    for (const link of ['/article/detail/about', '/', 'https://example.com', 'http://example.com/contact?x=1#y', 'HTTPS://EXAMPLE.COM']) {
      expect(siteLinkProblem(link), link).toBeNull();
    }
    for (const link of ['javascript:alert(1)', 'JavaScript:alert(1)', '//evil.example', '/\\evil.example', 'https://', 'https:///x', 'data:text/html,x', 'mailto:a@example.com', 'article/about', '/a b']) {
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
});
