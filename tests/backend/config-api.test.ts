import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { databaseNow } from '../../backend/db/dialect';
import { matchRoute } from '../../shared/routes';
import { api, login, startBackend, useBackend, withDatabase } from '../helpers/backend';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp';

// ConfigAPI: the public settings, config forms, and the dashboard calls.

const backend = useBackend({ member: true });
const { admin } = backend;
/** Every category of MOREDOC's settings (docs/moredoc.md §10) plus pay, vip, oauth and sms. */
const CATEGORIES = [
  'system',
  'captcha',
  'security',
  'footer',
  'converter',
  'download',
  'score',
  'email',
  'display',
  'release',
  'pay',
  'vip',
  'oauth',
  'sms',
];

async function configRow(category: string, name: string) {
  const res = await admin('GET', '/api/v1/config/list', { query: { category } });
  return res.body.config.find((c: { name: string }) => c.name === name);
}

describe('CONFIG_<CATEGORY>_<KEY> presets', () => {
  it('apply on the first start', async () => {
    const preset = await startBackend({
      env: { CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'true', CONFIG_DISPLAY_VIRTUAL_REGISTER_COUNT: '100' },
    });
    try {
      const settings = await api(preset.url, 'GET', '/api/v1/settings');
      expect(settings.body.security.enable_captcha_login).toBe(true);
      const stats = await api(preset.url, 'GET', '/api/v1/stats');
      expect(stats.body.user_count).toBe(101);
    } finally {
      await preset.close();
    }
  });
});

describe('system.domain (网站域名)', () => {
  const domainOf = async (url: string) => (await api(url, 'GET', '/api/v1/settings')).body.system.domain;

  it('is PUBLIC_ORIGIN on the first start, else empty (MOREDOC seeds its demo site, where reset links and sitemaps then pointed)', async () => {
    const told = await startBackend({ env: { PUBLIC_ORIGIN: 'https://docs.example.com' } });
    try {
      expect(await domainOf(told.url)).toBe('https://docs.example.com');
    } finally {
      await told.close();
    }
    // empty, so left out of the reply as MOREDOC leaves out every empty field
    expect(await domainOf(backend.url)).toBeUndefined();
  });

  it("an install still holding MOREDOC's demo address gets the new default at start; an address an admin chose stays", async () => {
    const first = await startBackend();
    const dataDir = first.dataDir;
    const setDomain = (value: string) =>
      withDatabase(dataDir, (db) =>
        db.updateTable('config').set({ value }).where('category', '=', 'system').where('name', '=', 'domain').execute(),
      );
    await first.close({ keepData: true });
    await setDomain('https://moredoc.mnt.ltd');
    const second = await startBackend({ dataDir, env: { PUBLIC_ORIGIN: 'https://docs.example.com' } });
    expect(await domainOf(second.url)).toBe('https://docs.example.com');
    await second.close({ keepData: true });
    await setDomain('https://wenku.example.cn');
    const third = await startBackend({ dataDir });
    try {
      expect(await domainOf(third.url)).toBe('https://wenku.example.cn');
    } finally {
      await third.close();
    }
  });
});

describe('footer links', () => {
  it('an install still holding the /article/detail/<identifier> links seeded before gets /article/<identifier>; a link an admin chose stays', async () => {
    const first = await startBackend();
    const dataDir = first.dataDir;
    const setFooter = (name: string, value: string) =>
      withDatabase(dataDir, (db) =>
        db.updateTable('config').set({ value }).where('category', '=', 'footer').where('name', '=', name).execute(),
      );
    await first.close({ keepData: true });
    await setFooter('about', '/article/detail/about');
    // an address of another of the site's pages, which the admin chose
    await setFooter('contact', '/article/detail/help');
    const second = await startBackend({ dataDir });
    try {
      expect((await api(second.url, 'GET', '/api/v1/settings')).body.footer).toMatchObject({
        about: '/article/about',
        contact: '/article/detail/help',
      });
    } finally {
      await second.close();
    }
  });
});

describe('GetSettings', () => {
  it('has exactly the public parts of a fresh install', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/settings');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'system',
      'footer',
      'security',
      'display',
      'language',
      'vip',
      'oauth',
      'pay',
      'sms',
      'email',
    ]);
    expect(res.body.system).toEqual({
      title: 'MOREDOC · 魔豆文库',
      keywords: 'MOREDOC · 魔豆文库',
      description: 'MOREDOC · 魔豆文库',
      sitename: '魔豆文库',
      copyright_start_year: '2019',
      version: pkg.version,
      credit_name: '魔豆',
      // score.delete_document's default: 我的文档 says it before a delete.
      delete_document_credits: 1,
      // score.upload_document and upload_document_limit's: the upload screen says the reward.
      upload_document_credits: 5,
      upload_document_limit: 1,
    });
    // MOREDOC's form, which its web client routes; ours opens it too: every default link must be a page of the SPA.
    expect(res.body.footer).toEqual({
      about: '/article/about',
      contact: '/article/contact',
      agreement: '/article/agreement',
      privacy: '/article/privacy',
      copyright: '/article/copyright',
      feedback: '/article/feedback',
    });
    for (const link of Object.values(res.body.footer as Record<string, string>))
      expect(matchRoute(link), link).toBeDefined();
    expect(Object.keys(res.body.security).sort()).toEqual(['close_statement', 'enable_register', 'max_document_size']);
    expect(res.body.security.max_document_size).toBe(50);
    // The default closing notice (MOREDOC's four lines) names no time, which would soon be past.
    expect(res.body.security.close_statement).toContain('正在进行系统升级维护');
    expect(res.body.security.close_statement).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(res.body.display).toEqual({
      show_register_user_count: true,
      show_index_categories: true,
      pages_per_read: 5,
      copyright_statement: '本站文档数据由用户上传，仅供学习交流，如侵犯您的权益，请联系我们进行删除。',
      show_document_descriptions: true,
      show_document_count: true,
      show_document_view_count: true,
      show_document_download_count: true,
      show_document_favorite_count: true,
      wechat_tip: '我们的公众号同样精彩',
      contact_tip: '联系我们，反馈您的意见与建议',
      copy_text: 'all',
      index_document_style: 'card',
      home_version: 'v1',
    });
    expect(res.body.language).toHaveLength(16);
    expect(res.body.language[0]).toEqual({ id: 1, language: '教育培训', code: 'education' });
    expect(res.body.oauth).toEqual({});
    expect(res.body.pay).toEqual({});
    expect(res.body.sms).toEqual({});
    expect(res.body.vip.enable).toBeUndefined();
    expect(res.body.vip).toMatchObject({
      title: 'VIP 会员',
      description: '开通 VIP 会员，畅享全站文档免费下载',
      free_download: true,
      read_all_pages: true,
      times_every_day: 50,
    });
    // The defaults name no currency: the site names its credits (system.credit_name, 魔豆).
    expect(res.body.vip.benefits).toBe(
      '<ul><li>免费下载全站文档</li><li>每日更多下载次数</li><li>专属会员标识</li></ul>',
    );
    expect(res.body.vip.plans).toEqual([
      { code: 'month', title: '月度会员', days: 30, price: 30 },
      { code: 'quarter', title: '季度会员', days: 90, price: 80 },
      { code: 'year', title: '年度会员', days: 365, price: 298, description: '最划算', recommended: true },
    ]);
  });

  it('reflects config changes at once, with the analytics and list rules', async () => {
    await backend.setConfig({
      'system.recommend_words': ' 考研, ,公务员 ,教师资格证，四六级 ，',
      'system.analytics': '<script>var a = 1;</script>\n<p>x</p><script async src="x"> var b = 2; </script>',
      'security.document_allowed_ext': '.pdf,.docx',
      'oauth.wechat': 'true',
      'vip.enable': 'true',
      'pay.enable': 'true',
      'pay.wechat_api_v3_key': 'very-secret-key-0123456789abcdef',
      'pay.provider': 'manual',
      'pay.manual_instructions': '转账至测试账户',
    });
    const res = await api(backend.url, 'GET', '/api/v1/settings');
    // Full-width commas separate too (the words are typed on a Chinese keyboard).
    expect(res.body.system.recommend_words).toEqual(['考研', '公务员', '教师资格证', '四六级']);
    expect(res.body.system.analytics).toBe('var a = 1;\nvar b = 2;');
    expect(res.body.security.document_allowed_ext).toEqual(['.pdf', '.docx']);
    expect(res.body.oauth).toEqual({ wechat: true });
    expect(res.body.vip.enable).toBe(true);
    expect(res.body.pay).toEqual({ enable: true, provider: 'manual', providers: ['manual'] });
    expect(res.text).not.toContain('very-secret-key');
    expect(res.text).not.toContain('转账至测试账户');
  });
});

describe('the reward of publishing a document', () => {
  it('is announced only while it pays: both numbers left out when the credits or the daily number is 0', async () => {
    const announced = async () => {
      const system = (await api(backend.url, 'GET', '/api/v1/settings')).body.system;
      return [system.upload_document_credits, system.upload_document_limit];
    };
    try {
      await backend.setConfig({ 'score.upload_document': '2', 'score.upload_document_limit': '3' });
      expect(await announced()).toEqual([2, 3]);
      await backend.setConfig({ 'score.upload_document_limit': '0' });
      expect(await announced()).toEqual([undefined, undefined]);
      await backend.setConfig({ 'score.upload_document': '0', 'score.upload_document_limit': '3' });
      expect(await announced()).toEqual([undefined, undefined]);
    } finally {
      await backend.setConfig({ 'score.upload_document': '5', 'score.upload_document_limit': '1' });
    }
  });
});

describe('ListConfig', () => {
  it('lists a category in form order and masks secrets', async () => {
    const res = await admin('GET', '/api/v1/config/list', { query: { category: ['captcha'] } });
    expect(res.body.config.map((c: { name: string }) => c.name)).toEqual(['height', 'width', 'length', 'type']);
    expect(res.body.config[3]).toMatchObject({
      label: '验证码类型',
      value: 'digit',
      input_type: 'select',
      category: 'captcha',
      options: 'string:字符串\nmath:算术\ndigit:数字\naudio:语音',
      col_num: 24,
    });
    const pay = await admin('GET', '/api/v1/config/list', { query: { category: 'pay' } });
    expect(pay.body.config.find((c: { name: string }) => c.name === 'wechat_api_v3_key').value).toBe('******');
    expect((await admin('GET', '/api/v1/config/list')).body).toEqual({});
  });

  it("has every category of MOREDOC's settings (docs/moredoc.md §10) plus pay, vip, oauth and sms", async () => {
    const res = await admin('GET', '/api/v1/config/list', { query: { category: CATEGORIES } });
    const counts = Object.fromEntries(
      CATEGORIES.map((c) => [c, res.body.config.filter((r: { category: string }) => r.category === c).length]),
    );
    expect(counts).toEqual({
      system: 14,
      captcha: 4,
      security: 17,
      footer: 6,
      converter: 7,
      download: 6,
      score: 10,
      email: 10,
      display: 20,
      release: 6,
      pay: 18,
      vip: 8,
      oauth: 7,
      sms: 15,
    });
  });
});

describe('security durations', () => {
  it('say their units (天, 分钟) in the help the form shows, and in the range refused', async () => {
    expect((await configRow('security', 'document_related_duration')).placeholder).toMatch(
      /^单位：天。.*0 表示不显示相关文档$/,
    );
    expect((await configRow('security', 'attachment_retention_minute')).placeholder).toMatch(
      /^单位：分钟。.*0 表示立即删除$/,
    );
    const row = await configRow('security', 'attachment_retention_minute');
    const res = await admin('PUT', '/api/v1/config', { body: { config: [{ id: row.id, value: '-5' }] } });
    expect(res.body.message).toBe('配置项【从回收站清除的文档文件保留时长】必须在 0 到 5256000 分钟之间');
  });
});

describe('the document types allowed for upload', () => {
  it('say in the help the form shows that none chosen allows every supported type', async () => {
    const row = await configRow('security', 'document_allowed_ext');
    expect(row.placeholder).toBe('不选则允许上传所有支持的格式');
  });
});

describe('converter keys our converter does not read', () => {
  it('say so in the help the form shows (预览格式, GZIP, SVGO)', async () => {
    for (const name of ['extension', 'enable_gzip', 'enable_svgo']) {
      expect((await configRow('converter', name)).placeholder, name).toMatch(/此项为兼容 MOREDOC 保留，不影响转换$/);
    }
    expect((await configRow('converter', 'timeout')).placeholder ?? '').toBe('');
  });
});

describe('UpdateConfig', () => {
  it('keeps a secret when the mask comes back', async () => {
    const row = await configRow('pay', 'wechat_api_v3_key');
    expect((await admin('PUT', '/api/v1/config', { body: { config: [{ ...row, value: '******' }] } })).status).toBe(
      200,
    );
    const stored = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('config')
        .select('value')
        .where('category', '=', 'pay')
        .where('name', '=', 'wechat_api_v3_key')
        .executeTakeFirstOrThrow(),
    );
    expect(stored.value).toBe('very-secret-key-0123456789abcdef');
  });

  const year = new Date().getFullYear();
  const linkProblem = '必须是 http:// 或 https:// 开头的网址，或以 / 开头的站内路径，例如 /article/detail/about';
  it.each([
    ['security', 'enable_register', 'yes', '配置项【是否允许注册】必须是 true 或 false'],
    ['security', 'max_document_size', '10MB', '配置项【最大文档大小(MB)】必须是整数'],
    ['security', 'max_document_size', '-1', '配置项【最大文档大小(MB)】必须在 1 到 102400 之间'],
    ['display', 'virtual_register_count', '-1', '配置项【网站虚拟注册用户数】不能为负数'],
    ['captcha', 'type', 'emoji', '配置项【验证码类型】的取值无效'],
    ['security', 'document_allowed_ext', '.pdf,.exe', '配置项【允许上传的文档类型】包含无效的选项'],
    ['system', 'logo', 'javascript:alert(1)', '配置项【网站Logo】必须是上传后的图片地址'],
    [
      'system',
      'domain',
      'example.com',
      '配置项【【重要】网站域名】必须是 http:// 或 https:// 开头的网站域名，例如 https://example.com',
    ],
    [
      'vip',
      'plans',
      'month|月度会员|thirty|30',
      '配置项【会员套餐】每行一个套餐，格式为 代码|名称|天数|价格（元）|说明|是否推荐（1），价格 0.01 元起，代码不能重复',
    ],
    ['email', 'duration', '600', '配置项【邮件有效期】必须在 1 到 60 之间'],
    ['system', 'sitename', '', '配置项【网站名称】不能为空'],
    ['system', 'sitename', '   ', '配置项【网站名称】不能为空'],
    ['system', 'copyright_start_year', 'abcd', `配置项【版权起始年】必须是 1900 到 ${year} 之间的四位年份，例如 2019`],
    [
      'system',
      'copyright_start_year',
      String(year + 1),
      `配置项【版权起始年】必须是 1900 到 ${year} 之间的四位年份，例如 2019`,
    ],
    ['email', 'port', '70000', '配置项【SMTP 服务器端口】必须在 1 到 65535 之间'],
    ['email', 'port', '0', '配置项【SMTP 服务器端口】必须在 1 到 65535 之间'],
    [
      'email',
      'host',
      'smtp://smtp.example.com',
      '配置项【SMTP 服务器地址】应为服务器的主机名或 IP 地址，例如 smtp.example.com（不含 smtp:// 和端口）',
    ],
    ['email', 'from_name', '文库\r\nBcc: someone@example.com', '配置项【发件人名称】不能包含换行'],
    ['converter', 'max_preview_percent', '150', '配置项【最大预览页数百分比】必须在 1 到 100 之间'],
    ['converter', 'max_preview_percent', '-5', '配置项【最大预览页数百分比】必须在 1 到 100 之间'],
    ['converter', 'timeout', '0', '配置项【转换超时(分钟)】必须在 1 到 1440 之间'],
    ['captcha', 'length', '0', '配置项【验证码长度】必须在 1 到 12 之间'],
    ['captcha', 'width', '5000', '配置项【验证码宽度】必须在 60 到 1000 之间'],
    ['download', 'url_duration', '0', '配置项【下载链接有效时长(秒)】必须在 1 到 2147483647 之间'],
    [
      'download',
      'free_download_duration',
      '999999999',
      '配置项【购买文档后多少天内允许免费重复下载】必须在 0 到 36500 之间',
    ],
    ['display', 'pages_per_read', '0', '配置项【文档【继续阅读】的页数】必须在 1 到 100 之间'],
    ['score', 'credit_name', '', '配置项【积分名称】不能为空'],
    // Required names: what cleaning leaves (shared/validation.ts cleanName) must not be empty.
    ['system', 'sitename', '\u202e', '配置项【网站名称】不能只包含控制字符或文字方向符号'],
    ['score', 'credit_name', '\u2066\u0001\u2069', '配置项【积分名称】不能只包含控制字符或文字方向符号'],
    ['vip', 'title', ' \u202d\u0085 ', '配置项【会员页标题】不能只包含控制字符或文字方向符号'],
    ['score', 'register', '3000000000', '配置项【注册】不能大于 2147483647'],
    ['footer', 'about', 'javascript:alert(1)', `配置项【关于我们】${linkProblem}`],
    ['footer', 'feedback', '//evil.example/feedback', `配置项【意见反馈】${linkProblem}`],
    ['display', 'contact_link', 'javascript:alert(1)', `配置项【联系我们跳转链接】${linkProblem}`],
    [
      'pay',
      'notify_url',
      'ftp://pay.example.com',
      '配置项【支付通知地址】必须是 http(s):// 开头的网址（不含 ? 和 #），例如 https://example.com',
    ],
  ])("refuses %s.%s = %j with the field's label", async (category, name, value, message) => {
    const row = await configRow(category, name);
    const res = await admin('PUT', '/api/v1/config', { body: { config: [{ id: row.id, value }] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await configRow(category, name)).value).toBe(row.value);
  });

  it('takes every category back as seeded, and links, years and ports in range', async () => {
    // The release category is not the admins' to write (403, below).
    const categories = CATEGORIES.filter((c) => c !== 'release');
    const fresh = await startBackend();
    try {
      const token = await login(fresh.url, 'admin', fresh.adminPassword);
      const listed = await api(fresh.url, 'GET', '/api/v1/config/list', { token, query: { category: categories } });
      const rows = listed.body.config as { id: number; value?: string }[];
      expect(rows.length).toBeGreaterThan(100);
      const saved = await api(fresh.url, 'PUT', '/api/v1/config', {
        token,
        body: { config: rows.map((r) => ({ id: r.id, value: r.value ?? '' })) },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    } finally {
      await fresh.close();
    }
    await backend.setConfig({
      'footer.about': ' https://help.example.com/about ',
      'display.contact_link': '/article/detail/contact',
      'system.copyright_start_year': '2001',
      'email.port': '587',
      'converter.max_preview_percent': '1',
      'captcha.length': '12',
    });
    expect((await configRow('footer', 'about')).value).toBe('https://help.example.com/about');
    const settings = (await api(backend.url, 'GET', '/api/v1/settings')).body;
    expect(settings.footer.about).toBe('https://help.example.com/about');
    expect(settings.display.contact_link).toBe('/article/detail/contact');
    expect(settings.system.copyright_start_year).toBe('2001');
    await backend.setConfig({
      'footer.about': '/article/detail/about',
      'display.contact_link': '',
      'system.copyright_start_year': '2019',
      'email.port': '465',
      'converter.max_preview_percent': '100',
      'captcha.length': '5',
    });
  });

  it('stores the site, credit and VIP page names cleaned like the names people write', async () => {
    await backend.setConfig({
      'system.sitename': ' 魔豆\u202e文库\u0001 ',
      'score.credit_name': '魔\u2066豆',
      'vip.title': 'VIP\t会员',
    });
    expect((await configRow('system', 'sitename')).value).toBe('魔豆文库');
    expect((await configRow('score', 'credit_name')).value).toBe('魔豆');
    expect((await configRow('vip', 'title')).value).toBe('VIP 会员');
    await backend.setConfig({ 'system.sitename': '魔豆文库', 'vip.title': 'VIP 会员' });
  });

  it('keeps the VIP benefits only through the rich-text allow-list, on save and in the settings', async () => {
    const row = await configRow('vip', 'benefits');
    const html =
      '<ul><li><strong>免积分</strong>下载</li><li onclick="alert(1)">专属标识<script>alert(2)</script></li></ul><img src="javascript:alert(3)"><p style="color:red">说明</p>';
    expect((await admin('PUT', '/api/v1/config', { body: { config: [{ id: row.id, value: html }] } })).status).toBe(
      200,
    );
    const kept = '<ul><li><strong>免积分</strong>下载</li><li>专属标识</li></ul><p>说明</p>';
    expect((await configRow('vip', 'benefits')).value).toBe(kept);
    expect((await api(backend.url, 'GET', '/api/v1/settings')).body.vip.benefits).toBe(kept);
    // A value that reached the table another way (an older version, SQL) is cleaned when served.
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('config')
        .set({ value: '<p>权益</p><script>alert(4)</script>' })
        .where('category', '=', 'vip')
        .where('name', '=', 'benefits')
        .execute(),
    );
    await admin('PUT', '/api/v1/config', {
      body: { config: [{ id: (await configRow('system', 'sitename')).id, value: '魔豆文库' }] },
    });
    expect((await api(backend.url, 'GET', '/api/v1/settings')).body.vip.benefits).toBe('<p>权益</p>');
  });

  it('refuses payment switched on with no usable way of paying, the same rule as the checkout (shared/config-rules.ts)', async () => {
    const fresh = await startBackend();
    try {
      const token = await login(fresh.url, 'admin', fresh.adminPassword);
      const rows = (await api(fresh.url, 'GET', '/api/v1/config/list', { token, query: { category: 'pay' } })).body
        .config as { id: number; name: string }[];
      const id = (name: string) => rows.find((r) => r.name === name)!.id;
      const put = (values: Record<string, string>) =>
        api(fresh.url, 'PUT', '/api/v1/config', {
          token,
          body: { config: Object.entries(values).map(([name, value]) => ({ id: id(name), value })) },
        });
      // The default ways (支付宝, 微信支付) without their keys: members would get 暂未开放在线支付.
      const refused = await put({ enable: 'true' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        '配置项【支付方式】中没有可用的方式（支付宝需填写支付宝 AppID、支付宝应用私钥、支付宝公钥；微信支付需填写微信支付 AppID、微信支付商户号、商户 API 证书序列号、商户 API 私钥、APIv3 密钥、微信支付公钥或平台证书），会员将无法下单。请填写后再保存，或关闭是否启用支付',
      );
      expect((await put({ enable: 'true', provider: '' })).body.message).toBe(
        '配置项【支付方式】不能为空：是否启用支付已开启，请至少选择一种支付方式',
      );
      expect((await put({ enable: 'true', provider: 'manual' })).body.message).toBe(
        '配置项【支付方式】中没有可用的方式（线下转账需填写线下转账说明），会员将无法下单。请填写后再保存，或关闭是否启用支付',
      );
      let settings = (await api(fresh.url, 'GET', '/api/v1/settings')).body;
      expect(settings.pay).toEqual({});
      // Switched off, anything goes; one usable way among the chosen is enough.
      expect((await put({ enable: 'false', provider: 'alipay' })).status).toBe(200);
      expect((await put({ manual_instructions: '转账至测试账户' })).status).toBe(200);
      expect((await put({ enable: 'true', provider: 'alipay,manual' })).status).toBe(200);
      settings = (await api(fresh.url, 'GET', '/api/v1/settings')).body;
      expect(settings.pay).toMatchObject({ enable: true, providers: ['manual'] });
      // Emptying the only usable way's key while payment is on is refused too.
      expect((await put({ manual_instructions: '' })).status).toBe(400);
    } finally {
      await fresh.close();
    }
  });

  it('says in the settings whether the site can send mail (on, with a server and an account)', async () => {
    const settings = async () => (await api(backend.url, 'GET', '/api/v1/settings')).body.email;
    expect(await settings()).toEqual({});
    await backend.setConfig({
      'email.enable': 'true',
      'email.host': 'smtp.example.com',
      'email.username': '',
    });
    expect(await settings()).toEqual({});
    await backend.setConfig({ 'email.username': 'noreply@example.com' });
    expect(await settings()).toEqual({ enable: true });
    await backend.setConfig({
      'email.enable': 'false',
      'email.host': '',
      'email.username': '',
    });
  });

  it('saves nothing when one item is bad', async () => {
    const good = await configRow('system', 'sitename');
    const bad = await configRow('security', 'enable_register');
    await admin('PUT', '/api/v1/config', {
      body: {
        config: [
          { id: good.id, value: '不该保存' },
          { id: bad.id, value: 'maybe' },
        ],
      },
    });
    expect((await api(backend.url, 'GET', '/api/v1/settings')).body.system.sitename).toBe('魔豆文库');
  });

  it('refuses the release category (403) and unknown ids (404)', async () => {
    const row = await configRow('release', 'source');
    const res = await admin('PUT', '/api/v1/config', { body: { config: [{ id: row.id, value: 'none' }] } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('不允许修改此类配置！');
    expect((await admin('PUT', '/api/v1/config', { body: { config: [{ id: 99999, value: 'x' }] } })).status).toBe(404);
  });

  it('sends a test mail when the e-mail form is saved with a test address', async () => {
    let smtp: SmtpSink | null = await startSmtpSink();
    try {
      const since = smtp.mails.length;
      await backend.setConfig({
        'email.enable': 'true',
        'email.host': '127.0.0.1',
        'email.port': String(smtp.port),
        'email.is_tls': 'false',
        'email.username': 'noreply@example.com',
        'email.test_email': 'ops@example.com',
      });
      expect((await smtp.next(since)).to).toEqual(['ops@example.com']);
      const closed = smtp.port;
      await smtp.close();
      smtp = null;
      const row = await configRow('email', 'from_name');
      const failed = await admin('PUT', '/api/v1/config', { body: { config: [{ id: row.id, value: '文库' }] } });
      expect(failed.status).toBe(503);
      // The common causes in Chinese, not nodemailer's `connect ECONNREFUSED 127.0.0.1:…`.
      expect(failed.body.message).toBe(`邮件发送失败：无法连接邮件服务器 127.0.0.1:${closed}（连接被拒绝）`);

      // TLS asked of a server that speaks plain SMTP.
      smtp = await startSmtpSink();
      const [port, tls] = [await configRow('email', 'port'), await configRow('email', 'is_tls')];
      const mismatched = await admin('PUT', '/api/v1/config', {
        body: {
          config: [
            { id: port.id, value: String(smtp.port) },
            { id: tls.id, value: 'true' },
          ],
        },
      });
      expect(mismatched.status).toBe(503);
      expect(mismatched.body.message).toBe(
        `邮件发送失败：与邮件服务器 127.0.0.1:${smtp.port} 建立 TLS 加密连接失败，请检查端口与 TLS 设置是否匹配`,
      );
    } finally {
      await smtp?.close();
      await backend.setConfig({ 'email.enable': 'false', 'email.is_tls': 'false', 'email.test_email': '' });
    }
  });
});

describe('GetStats', () => {
  it('gives visitors and members the public counts only, and the rest to permission holders', async () => {
    for (const token of [undefined, backend.member.token]) {
      const res = await api(backend.url, 'GET', '/api/v1/stats', { token });
      expect(Object.keys(res.body).sort()).toEqual(['article_count', 'user_count']); // the seeded footer pages; no documents yet: zero counts are omitted
      expect(res.body.version).toBeUndefined();
      expect(res.body.os).toBeUndefined();
    }
    const holder = await admin('GET', '/api/v1/stats');
    expect(holder.body).toMatchObject({ friendlink_count: 2, version: pkg.version, os: expect.any(String) });
    const anonymous = await api(backend.url, 'GET', '/api/v1/stats');
    expect(holder.body.user_count).toBe(anonymous.body.user_count);
  });

  it('tells permission holders how much of user_count is 网站虚拟注册用户数, so that the dashboard counts accounts', async () => {
    const row = await configRow('display', 'virtual_register_count');
    const before = await admin('GET', '/api/v1/stats');
    expect(before.body.virtual_user_count).toBeUndefined(); // 0, omitted
    const set = (value: string) => admin('PUT', '/api/v1/config', { body: { config: [{ id: row.id, value }] } });
    expect((await set('40')).status).toBe(200);
    try {
      const holder = await admin('GET', '/api/v1/stats');
      expect(holder.body.virtual_user_count).toBe(40);
      expect(holder.body.user_count).toBe(before.body.user_count + 40);
      const anonymous = await api(backend.url, 'GET', '/api/v1/stats');
      expect(anonymous.body.user_count).toBe(before.body.user_count + 40);
      expect(anonymous.body.virtual_user_count).toBeUndefined();
    } finally {
      await set('0');
    }
  });

  it("tells permission holders the conversions waiting, the oldest one's wait and the processes converting", async () => {
    // A web instance (RUN_JOBS=false) whose conversions nobody runs: the jobs stay as written.
    const web = await startBackend({ env: { RUN_JOBS: 'false' } });
    try {
      const token = await login(web.url, 'admin', web.adminPassword);
      const stats = async () => (await api(web.url, 'GET', '/api/v1/stats', { token })).body;
      const conversion = (body: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(body).filter(([key]) => key.startsWith('conversion_')));
      expect(conversion(await stats())).toEqual({}); // all 0, omitted
      const setJobs = (rows: { kind?: string; dueMs: number; lease?: [owner: string, ms: number] }[]) =>
        withDatabase(web.dataDir, async (db) => {
          await db.deleteFrom('job').execute();
          const now = (await databaseNow(db)).getTime();
          const at = (ms: number) => new Date(now + ms).toISOString();
          for (const [i, row] of rows.entries()) {
            await db
              .insertInto('job')
              .values({
                kind: row.kind ?? 'document.convert',
                payload: JSON.stringify({ hash: `h${i}` }),
                max_attempts: 3,
                run_after: at(row.dueMs),
                created_at: at(row.dueMs),
                updated_at: at(row.dueMs),
                ...(row.lease
                  ? { state: 'running', attempts: 1, lease_owner: row.lease[0], lease_expires_at: at(row.lease[1]) }
                  : {}),
              })
              .execute();
          }
        });
      const jobs = [
        { dueMs: -2 * 3600_000 },
        { dueMs: -60_000 },
        { dueMs: 3600_000 }, // not due yet (a retry's backoff)
        { kind: 'sitemap.refresh', dueMs: -5 * 3600_000 }, // not a conversion
        { dueMs: -3 * 3600_000, lease: ['w:1:x#1', 3600_000] as [string, number] }, // converting
      ];
      await setJobs(jobs);
      const waiting = conversion(await stats());
      expect(waiting).toMatchObject({ conversion_waiting: 2, conversion_workers: 1 });
      expect(waiting.conversion_waiting_seconds).toBeGreaterThanOrEqual(2 * 3600);
      expect(waiting.conversion_waiting_seconds).toBeLessThan(3 * 3600);
      // The converting process died 3 hours ago: its lease ran out, and its job waits again.
      await setJobs([...jobs.slice(0, 4), { dueMs: -4 * 3600_000, lease: ['w:1:x#1', -3 * 3600_000] }]);
      const stopped = conversion(await stats());
      expect(stopped).toMatchObject({ conversion_waiting: 3 });
      expect(stopped.conversion_workers).toBeUndefined();
      expect(stopped.conversion_waiting_seconds).toBeGreaterThanOrEqual(3 * 3600);
      // Visitors and members learn nothing of it.
      expect(conversion((await api(web.url, 'GET', '/api/v1/stats')).body)).toEqual({});
    } finally {
      await web.close();
    }
  });

  it('reports the build to permission holders: from the sources, the commit checked out; BUILD_HASH and BUILD_AT over it', async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const holder = await admin('GET', '/api/v1/stats');
    expect(holder.body).toMatchObject({
      hash: head,
      build_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    // From the sources the build is when the process started, in China time as every date of the site
    // (the server's own zone, UTC here, put it 8 hours back).
    const builtAt = Date.parse(`${holder.body.build_at.replace(' ', 'T')}+08:00`);
    expect(Math.abs(Date.now() - builtAt)).toBeLessThan(2 * 3600_000);
    const tagged = await startBackend({ env: { BUILD_HASH: 'f00dfeed', BUILD_AT: '2026-11-27 08:00:00' } });
    try {
      const token = await login(tagged.url, 'admin', tagged.adminPassword);
      const stats = await api(tagged.url, 'GET', '/api/v1/stats', { token });
      expect(stats.body).toMatchObject({ hash: 'f00dfeed', build_at: '2026-11-27 08:00:00' });
      expect((await api(tagged.url, 'GET', '/api/v1/stats')).body.hash).toBeUndefined();
    } finally {
      await tagged.close();
    }
  });

  it('refuses the environment, the hardware and the release to a member', async () => {
    const member = backend.member.token;
    expect((await api(backend.url, 'GET', '/api/v1/envs', { token: member })).body).toEqual({});
    expect((await api(backend.url, 'GET', '/api/v1/device', { token: member })).status).toBe(403);
    const release = await api(backend.url, 'GET', '/api/v1/release', { token: member });
    expect(release.status).toBe(403);
    expect(release.body.current).toBeUndefined();
  });
});

describe('GetEnvs and GetDeviceInfo', () => {
  it('GetEnvs is empty without the permission and lists the tools with it', async () => {
    expect((await api(backend.url, 'GET', '/api/v1/envs', { token: backend.member.token })).body).toEqual({});
    const res = await admin('GET', '/api/v1/envs');
    expect(res.body.envs.map((e: { name: string }) => e.name)).toEqual(['MuPDF', 'LibreOffice', 'Calibre']);
    expect(res.body.envs[0]).toMatchObject({
      name: 'MuPDF',
      is_required: true,
      is_installed: true,
      version: expect.stringMatching(/^\d+\.\d+/),
      checked_at: expect.any(String),
    });
  });

  it('GetDeviceInfo reports CPU, memory and the data disk', async () => {
    const res = await admin('GET', '/api/v1/device');
    expect(res.body.cpu.cores).toBeGreaterThan(0);
    expect(res.body.memory.total).toBeGreaterThan(res.body.memory.free ?? 0);
    expect(res.body.disk[0]).toMatchObject({ disk_name: backend.dataDir, total: expect.any(Number) });
  });
});

describe('SetSQLMode and the release calls', () => {
  it('SetSQLMode is for user 1 only', async () => {
    expect((await admin('PUT', '/api/v1/sqlmode')).status).toBe(200);
    const res = await api(backend.url, 'PUT', '/api/v1/sqlmode', { token: backend.member.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('只有用户ID为1的用户才有权限执行此操作！');
  });

  it('release calls are for admins and store source and ignore', async () => {
    const denied = await api(backend.url, 'GET', '/api/v1/release', { token: backend.member.token });
    expect(denied.body).toMatchObject({ code: 7, message: '只有管理员才有权限执行此操作！' });
    expect((await admin('GET', '/api/v1/release')).body).toEqual({ source: 'auto', current: pkg.version });
    expect((await admin('PUT', '/api/v1/release/source', { body: { source: 'bitbucket' } })).status).toBe(400);
    expect((await admin('PUT', '/api/v1/release/ignore', { body: { tag_name: 'v9.9.9' } })).status).toBe(200);
    expect((await admin('POST', '/api/v1/release')).body).toMatchObject({ ignore: 'v9.9.9', source: 'auto' });
    await admin('PUT', '/api/v1/release/source', { body: { source: 'none' } });
    const refresh = await admin('POST', '/api/v1/release');
    expect(refresh.body.message).toBe('您未指定新版本检测来源，无法获取最新版本更新！');
  });

  it('IgnoreRelease checks the version like other text: no control characters, at most 64 characters', async () => {
    expect((await admin('PUT', '/api/v1/release/ignore', { body: { tag_name: 'v9.9.9' } })).status).toBe(200);
    for (const [tag_name, message] of [
      ['v9\u0000.9', '版本号包含非法字符'],
      ['v9.9\n9', '版本号包含非法字符'],
      [`v${'9'.repeat(64)}`, '版本号长度不能超过 64 个字符'],
    ]) {
      const refused = await admin('PUT', '/api/v1/release/ignore', { body: { tag_name } });
      expect([refused.status, refused.body.message]).toEqual([400, message]);
    }
    expect((await admin('GET', '/api/v1/release')).body).toMatchObject({ ignore: 'v9.9.9' });
  });
});
