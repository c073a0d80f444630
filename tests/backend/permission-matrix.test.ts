import { beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../backend/app';
import { api, registerMember, useBackend, type Query } from '../helpers/backend';
import { insertDocument } from '../helpers/document-fixtures';

// Every RPC that needs a permission, taken from the backend's own route table: anonymous
// callers get 401, members without the grant 403, the admin 200 (with a valid input from
// the table below), and a member whose group holds the grant gets through too.

interface Call {
  query?: Query;
  body?: unknown;
}
interface Fixture {
  adminToken: string;
  adminPassword: string;
  post(path: string, body: unknown): Promise<{ id: number }>;
  put(path: string, body: unknown): Promise<void>;
  newUserId(): Promise<number>;
  configId(category: string, name: string): Promise<number>;
}

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now() % 100000}x${++seq}`;

/** A valid admin call for each PERM RPC. A new PERM RPC fails the suite until it is added here. */
const adminCalls: Record<string, (f: Fixture) => Promise<Call>> = {
  'UserAPI.DeleteUser': async (f) => ({ query: { id: await f.newUserId(), password: f.adminPassword } }),
  'UserAPI.AddUser': async () => ({ body: { username: unique('added'), password: 'secret-pass', group_id: [2] } }),
  'UserAPI.SetUser': async (f) => ({ body: { id: await f.newUserId(), group_id: [2] } }),
  'UserAPI.AdjustUserCredit': async (f) => ({ body: { id: await f.newUserId(), amount: 5, reason: '活动奖励' } }),
  'GroupAPI.CreateGroup': async () => ({ body: { title: unique('组') } }),
  'GroupAPI.UpdateGroup': async (f) => ({
    body: { id: (await f.post('/api/v1/group', { title: unique('组') })).id, title: unique('改') },
  }),
  'GroupAPI.DeleteGroup': async (f) => ({ query: { id: (await f.post('/api/v1/group', { title: unique('组') })).id } }),
  'GroupAPI.GetGroupPermission': async () => ({ query: { id: 2 } }),
  'GroupAPI.UpdateGroupPermission': async (f) => ({
    body: { group_id: (await f.post('/api/v1/group', { title: unique('组') })).id, permission_id: [1] },
  }),
  'PermissionAPI.UpdatePermission': async () => ({ body: { id: 1, title: '根据ID查询用户' } }),
  'PermissionAPI.GetPermission': async () => ({ query: { id: 1 } }),
  'PermissionAPI.ListPermission': async () => ({}),
  'ConfigAPI.UpdateConfig': async (f) => ({
    body: { config: [{ id: await f.configId('system', 'sitename'), value: '魔豆文库' }] },
  }),
  'ConfigAPI.ListConfig': async () => ({ query: { category: 'system' } }),
  'ConfigAPI.UpdateSitemap': async () => ({}),
  'ConfigAPI.GetDeviceInfo': async () => ({}),
  'ConfigAPI.GetSetupChecklist': async () => ({}),
  'ConfigAPI.SendTestSms': async () => ({ body: { mobile: '13800000000' } }),
  'UserAPI.ListSmsLog': async () => ({ query: { purpose: 'test' } }),
  'UserAPI.GetSmsStats': async () => ({ query: { mobile: '13800000000' } }),
  'CategoryAPI.CreateCategory': async () => ({ body: { title: unique('分类') } }),
  'CategoryAPI.UpdateCategory': async (f) => ({
    body: { id: await newCategory(f), title: unique('分类'), enable: true },
  }),
  'CategoryAPI.DeleteCategory': async (f) => ({ query: { id: await newCategory(f) } }),
  'CategoryAPI.GetCategory': async (f) => ({ query: { id: await newCategory(f) } }),
  'BannerAPI.CreateBanner': async () => ({ body: { title: '横幅', path: '/uploads/a/b.png' } }),
  'BannerAPI.UpdateBanner': async (f) => ({
    body: { id: (await f.post('/api/v1/banner', { path: '/uploads/x.png' })).id, path: '/uploads/y.png' },
  }),
  'BannerAPI.DeleteBanner': async (f) => ({
    query: { id: (await f.post('/api/v1/banner', { path: '/uploads/x.png' })).id },
  }),
  'BannerAPI.GetBanner': async (f) => ({
    query: { id: (await f.post('/api/v1/banner', { path: '/uploads/x.png' })).id },
  }),
  'FriendlinkAPI.CreateFriendlink': async () => ({ body: { title: '友链', link: 'https://example.com' } }),
  'FriendlinkAPI.UpdateFriendlink': async () => ({
    body: { id: 1, title: '摩枫网络科技', link: 'https://mnt.ltd', enable: true },
  }),
  'FriendlinkAPI.DeleteFriendlink': async (f) => ({
    query: { id: (await f.post('/api/v1/friendlink', { title: '删', link: 'https://x.cn' })).id },
  }),
  'NavigationAPI.CreateNavigation': async () => ({ body: { title: '导航', href: '/somewhere' } }),
  'NavigationAPI.UpdateNavigation': async (f) => ({
    body: { id: (await f.post('/api/v1/navigation', { title: '导航', href: '/n' })).id, title: '改', href: '/m' },
  }),
  'NavigationAPI.DeleteNavigation': async (f) => ({
    query: { id: (await f.post('/api/v1/navigation', { title: '导航', href: '/n' })).id },
  }),
  'LanguageAPI.CreateLanguage': async () => ({ body: { language: '测试语', code: `zz-t${++seq}` } }),
  'LanguageAPI.UpdateLanguage': async () => ({ body: { id: 1, language: '教育培训', enable: true } }),
  'LanguageAPI.UpdateLanguageStatus': async () => ({ body: { id: [1], enable: true } }),
  'LanguageAPI.DeleteLanguage': async () => ({ query: { id: 16 } }),
  'PunishmentAPI.CreatePunishment': async (f) => ({
    body: { user_id: [await f.newUserId()], type: [2], enable: true },
  }),
  'PunishmentAPI.UpdatePunishment': async (f) => ({ body: { id: await newPunishment(f), type: 3, enable: false } }),
  'PunishmentAPI.GetPunishment': async (f) => ({ query: { id: await newPunishment(f) } }),
  'PunishmentAPI.ListPunishment': async () => ({}),
  'PunishmentAPI.CancelPunishment': async (f) => ({ body: { id: [await newPunishment(f)] } }),
  'DocumentAPI.CheckDocument': async () => ({ body: { id: [1], status: 2 } }),
  'DocumentAPI.SetDocumentRecommend': async () => ({ body: { id: [1], type: 1 } }),
  'DocumentAPI.SetDocumentsCategory': async (f) => ({
    body: { document_id: [1], category_id: [await newCategory(f)] },
  }),
  'DocumentAPI.SetDocumentsLanguage': async () => ({ body: { document_id: [1], language: '' } }),
  'DocumentAPI.SetDocumentReconvert': async () => ({}),
  'RecycleAPI.ListRecycleDocument': async () => ({ query: { page: 1, size: 10 } }),
  'RecycleAPI.RecoverRecycleDocument': async () => ({ body: { id: [1] } }),
  'RecycleAPI.DeleteRecycleDocument': async () => ({ query: { id: [1] } }),
  'RecycleAPI.ClearRecycleDocument': async () => ({}),
  'AttachmentAPI.UpdateAttachment': async (f) => ({
    body: { id: await newAttachment(f), name: '改名.png', enable: true },
  }),
  'AttachmentAPI.DeleteAttachment': async (f) => ({ query: { id: await newAttachment(f) } }),
  'AttachmentAPI.GetAttachment': async (f) => ({ query: { id: await newAttachment(f) } }),
  'AttachmentAPI.ListAttachment': async () => ({ query: { type: 7 } }),
  'DocumentAPI.DownloadDocumentToBeReviewed': async () => ({
    query: { id: (await insertDocument(backend.dataDir, { userId: 1, status: 6 })).id },
  }),
  'SearchRecordAPI.DeleteSearchRecord': async () => ({ query: { id: 1 } }),
  'SearchRecordAPI.ListSearchRecord': async () => ({ query: { keywords: '报告' } }),
  'ArticleAPI.SetArticlesCategory': async (f) => ({ body: { article_id: [await newArticle(f)], category_id: [] } }),
  'ArticleAPI.RecommendArticles': async (f) => ({ body: { article_id: [await newArticle(f)], is_recommend: true } }),
  'ArticleAPI.CheckArticles': async (f) => ({ body: { article_id: [await newArticle(f)], status: 1 } }),
  'ArticleAPI.ListRecycleArticle': async () => ({}),
  'ArticleAPI.RestoreRecycleArticle': async (f) => ({ body: { id: [await recycledArticle(f)] } }),
  'ArticleAPI.DeleteRecycleArticle': async (f) => ({ query: { id: await recycledArticle(f) } }),
  'ArticleAPI.EmptyRecycleArticle': async () => ({}),
  'CommentAPI.UpdateComment': async (f) => ({ body: { id: await newComment(f), content: '改过的评论', status: 1 } }),
  'CommentAPI.GetComment': async (f) => ({ query: { id: await newComment(f) } }),
  'CommentAPI.CheckComment': async (f) => ({ body: { id: [await newComment(f)], status: 1 } }),
  'ReportAPI.UpdateReport': async (f) => ({ body: { id: await newReport(f), status: true, remark: '已处理' } }),
  'ReportAPI.DeleteReport': async (f) => ({ query: { id: await newReport(f) } }),
  'ReportAPI.ListReport': async () => ({}),
  'FeedbackAPI.UpdateFeedback': async (f) => ({ body: { id: await newFeedback(f), status: 1, reply: '谢谢' } }),
  'FeedbackAPI.DeleteFeedback': async (f) => ({ query: { id: await newFeedback(f) } }),
  'FeedbackAPI.ListFeedback': async () => ({}),
  'UserVipAPI.ListUserVip': async () => ({ query: { status: 1 } }),
  'UserVipAPI.GrantUserVip': async (f) => ({ body: { user_id: [await f.newUserId()], days: 30, reason: '测试开通' } }),
  'UserVipAPI.RevokeUserVip': async (f) => ({ body: { user_id: [await f.newUserId()], reason: '测试取消' } }),
  'UserVipAPI.ListUserVipLog': async (f) => ({ query: { user_id: await f.newUserId() } }),
  'OrderAPI.ListOrder': async () => ({ query: { status: 0 } }),
  'OrderAPI.CloseOrder': async () => ({ body: { id: [await newOrder()], reason: '测试关闭' } }),
  'OrderAPI.RefundOrder': async (f) => {
    const id = await newOrder();
    await f.put('/api/v1/order/confirm', { id, reason: '已收款' });
    return { body: { id, reason: '测试退款' } };
  },
  'OrderAPI.ConfirmOrder': async () => ({ body: { id: await newOrder(), reason: '已收到转账' } }),
  'OrderAPI.ListPaymentNotification': async () => ({}),
  'AdvertisementAPI.CreateAdvertisement': async () => ({ body: AD }),
  'AdvertisementAPI.UpdateAdvertisement': async (f) => ({
    body: { ...AD, id: (await f.post('/api/v1/advertisement', AD)).id, title: '改' },
  }),
  'AdvertisementAPI.DeleteAdvertisement': async (f) => ({
    query: { id: (await f.post('/api/v1/advertisement', AD)).id },
  }),
  'AdvertisementAPI.GetAdvertisement': async (f) => ({ query: { id: (await f.post('/api/v1/advertisement', AD)).id } }),
  'AdvertisementAPI.ListAdvertisement': async () => ({ query: { position: 'global_top' } }),
};

const AD = {
  position: 'global_top',
  title: '广告',
  content: '<a href="https://ad.example">广告</a>',
  start_time: '2020-01-01T00:00:00Z',
  end_time: '2099-01-01T00:00:00Z',
};

/** A config image uploaded by the admin (a tiny PNG whose bytes differ per call). */
async function newAttachment(f: Fixture): Promise<number> {
  const png = Buffer.alloc(40);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
  png.writeUInt32BE(++seq, 36);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)]), 'matrix.png');
  const res = await fetch(`${backend.url}/api/v1/upload/config`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${f.adminToken}` },
  });
  return ((await res.json()) as { data: { id: number } }).data.id;
}

async function newArticle(f: Fixture): Promise<number> {
  return (await f.post('/api/v1/article', { title: unique('文章'), content: '<p>正文</p>' })).id;
}

async function recycledArticle(f: Fixture): Promise<number> {
  const id = await newArticle(f);
  await api(backend.url, 'DELETE', '/api/v1/article', { token: f.adminToken, query: { id } });
  return id;
}

/** Each by a new member: the comment interval applies to everybody. */
async function newComment(f: Fixture): Promise<number> {
  const author = await registerMember(backend.url);
  const res = await api(backend.url, 'POST', '/api/v1/comment', {
    token: author.token,
    body: { type: 1, document_id: await newArticle(f), content: '评论' },
  });
  return res.body.id;
}

async function newReport(f: Fixture): Promise<number> {
  const reporter = await registerMember(backend.url);
  await api(backend.url, 'POST', '/api/v1/report', {
    token: reporter.token,
    body: { type: 1, document_id: await newArticle(f), reason: 1 },
  });
  const list = await api(backend.url, 'GET', '/api/v1/report/list', { token: f.adminToken });
  return list.body.report[0].id;
}

async function newFeedback(f: Fixture): Promise<number> {
  const content = unique('反馈');
  await api(backend.url, 'POST', '/api/v1/feedback', { body: { content } });
  const list = await api(backend.url, 'GET', '/api/v1/feedback/list', { token: f.adminToken, query: { wd: content } });
  return list.body.feedback[0].id;
}

/** A pending order of a new member (the manual provider is on in this file's backend). */
async function newOrder(): Promise<number> {
  const buyer = await registerMember(backend.url);
  const res = await api(backend.url, 'POST', '/api/v1/order', {
    token: buyer.token,
    body: { plan_code: 'month', price: 30 },
  });
  if (res.status !== 200) throw new Error(`order: ${res.status} ${res.text}`);
  return res.body.id;
}

async function newCategory(f: Fixture): Promise<number> {
  const title = unique('分类');
  await f.post('/api/v1/category', { title });
  const list = await api(backend.url, 'GET', '/api/v1/category/list', { token: f.adminToken, query: { wd: title } });
  return list.body.category[0].id;
}

async function newPunishment(f: Fixture): Promise<number> {
  const userId = await f.newUserId();
  await f.post('/api/v1/punishment', { user_id: [userId], type: [2] });
  const list = await api(backend.url, 'GET', '/api/v1/punishment/list', {
    token: f.adminToken,
    query: { user_id: userId },
  });
  return list.body.punishment[0].id;
}

const allRpcs = services.flatMap((s) => s.rpcs.map((r) => ({ key: `${s.name}.${r.name}`, ...r })));
const permRpcs = allRpcs.filter((r) => r.spec.auth === 'perm');
const loginRpcs = allRpcs.filter((r) => r.spec.auth === 'login');

// SMS on, with the log-only provider, so that the test message of ConfigAPI can be sent; VIP
// on with the manual provider, so that orders can be placed for the OrderAPI calls; the site's
// address set, so that UpdateSitemap can write the sitemaps.
const backend = useBackend({
  member: true,
  env: {
    CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com',
    CONFIG_SMS_ENABLE: 'true',
    CONFIG_VIP_ENABLE: 'true',
    CONFIG_PAY_ENABLE: 'true',
    CONFIG_PAY_PROVIDER: 'manual',
    CONFIG_PAY_MANUAL_INSTRUCTIONS: '转账至测试账户',
  },
});
let fixture: Fixture;

beforeAll(() => {
  fixture = {
    adminToken: backend.adminToken,
    adminPassword: backend.adminPassword,
    async post(path, body) {
      const res = await backend.admin('POST', path, { body });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
      return res.body;
    },
    async put(path, body) {
      const res = await backend.admin('PUT', path, { body });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    },
    async newUserId() {
      return (await registerMember(backend.url)).user.id;
    },
    async configId(category, name) {
      const res = await backend.admin('GET', '/api/v1/config/list', { query: { category } });
      return res.body.config.find((c: { name: string }) => c.name === name).id;
    },
  };
});

describe('permission matrix', () => {
  it('knows a valid admin call for every PERM RPC', () => {
    expect(permRpcs.map((r) => r.key).filter((k) => !adminCalls[k])).toEqual([]);
  });

  it.each(permRpcs.map((r) => [r.key, r] as const))('%s: anonymous → 401', async (_key, rpc) => {
    const res = await api(backend.url, rpc.method, rpc.url);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(16);
  });

  it.each(permRpcs.map((r) => [r.key, r] as const))('%s: member without the grant → 403', async (_key, rpc) => {
    const res = await api(backend.url, rpc.method, rpc.url, { token: backend.member.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 7, message: `您没有权限访问【${rpc.spec.permission}】` });
  });

  it.each(permRpcs.map((r) => [r.key, r] as const))('%s: admin → 200', async (key, rpc) => {
    const call = await adminCalls[key]!(fixture);
    const res = await api(backend.url, rpc.method, rpc.url, { token: fixture.adminToken, ...call });
    expect(res.status, res.text).toBe(200);
  });

  it.each(loginRpcs.map((r) => [r.key, r] as const))('%s: anonymous → 401', async (_key, rpc) => {
    const res = await api(backend.url, rpc.method, rpc.url);
    expect(res.status).toBe(401);
  });

  it('lets a member through once a group of theirs holds the grant, and not after it is revoked', async () => {
    const { adminToken } = fixture;
    const group = await fixture.post('/api/v1/group', { title: unique('运营') });
    const perms = await api(backend.url, 'GET', '/api/v1/permission/list', {
      token: adminToken,
      query: { path: 'FriendlinkAPI' },
    });
    const ids = perms.body.permission.map((p: { id: number }) => p.id);
    await api(backend.url, 'PUT', '/api/v1/group/permission', {
      token: adminToken,
      body: { group_id: group.id, permission_id: ids },
    });
    const operator = await registerMember(backend.url);
    await api(backend.url, 'PUT', '/api/v1/user', {
      token: adminToken,
      body: { id: operator.user.id, group_id: [2, group.id] },
    });

    const created = await api(backend.url, 'POST', '/api/v1/friendlink', {
      token: operator.token,
      body: { title: '运营友链', link: 'https://op.example' },
    });
    expect(created.status).toBe(200);
    const mine = await api(backend.url, 'GET', '/api/v1/user/permission', { token: operator.token });
    expect(mine.body.permission.map((p: { id: number }) => p.id).sort()).toEqual([...ids].sort());
    const other = await api(backend.url, 'GET', '/api/v1/permission/list', { token: operator.token });
    expect(other.status).toBe(403);

    await api(backend.url, 'PUT', '/api/v1/group/permission', {
      token: adminToken,
      body: { group_id: group.id, permission_id: [] },
    });
    const revoked = await api(backend.url, 'POST', '/api/v1/friendlink', {
      token: operator.token,
      body: { title: 'x', link: 'https://x.example' },
    });
    expect(revoked.status).toBe(403);
  });
});
