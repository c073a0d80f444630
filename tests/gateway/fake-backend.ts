// A small MOREDOC look-alike for page tests: settings, navigation, categories, users by
// token, permissions, and the admin writes that must refresh the start data; documents and
// ads for the pages' route data, with answers that can be made slow.
import type { Category } from '../../shared/types/category';
import type { Settings } from '../../shared/types/config';
import type { Advertisement } from '../../shared/types/advertisement';
import type { Document } from '../../shared/types/document';
import type { Navigation } from '../../shared/types/navigation';
import type { Permission } from '../../shared/types/permission';
import type { User } from '../../shared/types/user';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { json, makeJwt, startStub, type Stub, startCounted, type CountedGateway } from './helpers';

export interface Account {
  user: User;
  permissions: Permission[];
}

export interface FakeBackend extends Stub {
  settings: Settings;
  navigation: Navigation[];
  categories: Category[];
  accounts: Map<string, Account>;
  /** GET paths (without query) → number of calls */
  calls: Map<string, number>;
  memberToken: string;
  adminToken: string;
  /** a well-formed, unexpired token the backend no longer accepts (logged out) */
  revokedToken: string;
  /** by id; GET /api/v1/document answers them (a JSON 404 otherwise), the latest list all of them */
  documents: Map<number, Document>;
  /** GET /api/v1/document/hot's ranking, in order (empty: the backend's empty answer). */
  hot: Document[];
  ads: Advertisement[];
  /** GET paths (without query) → milliseconds to wait before answering */
  delays: Map<string, number>;
  /** the Authorization header of every GET, by path */
  authorizations: Map<string, (string | undefined)[]>;
  /** other files by path (page images): GET answers them with their type and cache-control */
  files: Map<string, { type: string; body: Buffer; cacheControl: string }>;
}

export const ADMIN_PERMISSIONS: Permission[] = [
  { id: 11, method: 'GRPC', path: '/api.v1.UserAPI/ListUser', title: '查看用户列表' },
  { id: 12, method: 'GRPC', path: '/api.v1.ConfigAPI/ListConfig', title: '获取系统配置列表' },
  { id: 13, method: 'GRPC', path: '/api.v1.ConfigAPI/UpdateConfig', title: '更新系统配置' },
];

export async function startFakeBackend(): Promise<FakeBackend> {
  const settings: Settings = {
    system: {
      sitename: '魔豆文库',
      title: 'MOREDOC · 魔豆文库',
      description: '文档分享 <平台> & "资料"',
      keywords: '文档,资料',
      favicon: '/uploads/a/b/c/d/e/favicon.png',
    },
    security: { enable_register: true },
  };
  const navigation: Navigation[] = [{ id: 1, title: '首页', href: '/', enable: true }];
  const categories: Category[] = [
    { id: 1, title: '</script><script>alert(1)</script>', type: 0, enable: true },
    { id: 2, title: '新闻', type: 1, enable: true },
  ];
  const memberToken = makeJwt({ UserId: 2, UUID: 'member' });
  const adminToken = makeJwt({ UserId: 1, UUID: 'admin' });
  const revokedToken = makeJwt({ UserId: 3, UUID: 'revoked' });
  const accounts = new Map<string, Account>([
    [memberToken, { user: { id: 2, username: 'member', group_id: [2] }, permissions: [] }],
    [adminToken, { user: { id: 1, username: 'admin', group_id: [1] }, permissions: ADMIN_PERMISSIONS }],
  ]);
  const calls = new Map<string, number>();
  const documents = new Map<number, Document>();
  const hot: Document[] = [];
  const ads: Advertisement[] = [];
  const delays = new Map<string, number>();
  const authorizations = new Map<string, (string | undefined)[]>();
  const files = new Map<string, { type: string; body: Buffer; cacheControl: string }>();

  const stub = await startStub(async (req, res, body) => {
    const [path = '', query = ''] = (req.url ?? '').split('?');
    if (req.method === 'GET') {
      calls.set(path, (calls.get(path) ?? 0) + 1);
      authorizations.set(path, [...(authorizations.get(path) ?? []), req.headers.authorization]);
      const delay = delays.get(path);
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account = token ? accounts.get(token) : undefined;
    const unauthorized = () =>
      json(res, 401, {
        error: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
        code: 16,
        message: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
      });
    const key = `${req.method} ${path}`;
    switch (key) {
      case 'GET /api/v1/settings':
        return json(res, 200, settings);
      case 'GET /api/v1/navigation/list':
        return json(res, 200, { navigation, total: navigation.length });
      case 'GET /api/v1/category/list': {
        const types = new URLSearchParams(query).getAll('type').map(Number);
        const wanted = types.length > 0 ? types : [0];
        return json(res, 200, { category: categories.filter((c) => wanted.includes(c.type ?? 0)) });
      }
      case 'GET /api/v1/user':
        return account ? json(res, 200, account.user) : unauthorized();
      case 'GET /api/v1/user/permission':
        return account
          ? json(res, 200, account.permissions.length ? { permission: account.permissions } : {})
          : unauthorized();
      case 'PUT /api/v1/user/profile': {
        if (!account) return unauthorized();
        const { signature } = JSON.parse(body.toString('utf8')) as User;
        account.user.signature = signature;
        return json(res, 200, {});
      }
      case 'PUT /api/v1/user': {
        // an admin sets a user's groups: group 1 is the administrators
        if (!account) return unauthorized();
        const { id, group_id: groups = [] } = JSON.parse(body.toString('utf8')) as { id: number; group_id?: number[] };
        for (const target of accounts.values()) {
          if (target.user.id !== id) continue;
          target.user.group_id = groups;
          target.permissions = groups.includes(1) ? ADMIN_PERMISSIONS : [];
        }
        return json(res, 200, {});
      }
      case 'PUT /api/v1/config': {
        if (!account) return unauthorized();
        const { config } = JSON.parse(body.toString('utf8')) as {
          config: { category: string; name: string; value: string }[];
        };
        for (const item of config) {
          const group = (settings[item.category as 'system'] ??= {}) as Record<string, unknown>;
          // switches come back as booleans, false ones omitted, as GET /api/v1/settings does
          if (item.value === 'false') delete group[item.name];
          else group[item.name] = item.value === 'true' ? true : item.value;
        }
        return json(res, 200, {});
      }
      case 'POST /api/v1/navigation':
        navigation.push({ id: navigation.length + 1, ...(JSON.parse(body.toString('utf8')) as Navigation) });
        return json(res, 200, {});
      case 'POST /api/v1/category':
        categories.push({ id: categories.length + 1, ...(JSON.parse(body.toString('utf8')) as Category) });
        return json(res, 200, {});
      case 'GET /api/v1/document': {
        const doc = documents.get(Number(new URLSearchParams(query).get('id')));
        return doc ? json(res, 200, doc) : json(res, 404, { error: '文档不存在', code: 5, message: '文档不存在' });
      }
      case 'DELETE /api/v1/document':
        for (const id of new URLSearchParams(query).getAll('id')) documents.delete(Number(id));
        return json(res, 200, {});
      case 'GET /api/v1/document/related':
        return json(res, 200, {
          document: [...documents.values()].filter((d) => String(d.id) !== new URLSearchParams(query).get('id')),
        });
      case 'GET /api/v1/document/list':
        return json(res, 200, { document: [...documents.values()] });
      case 'GET /api/v1/document/hot': {
        // The ranking (`hot`, empty unless a test fills it), a page at a time.
        const params = new URLSearchParams(query);
        const size = Number(params.get('size') ?? 20);
        const start = (Number(params.get('page') ?? 1) - 1) * size;
        return json(res, 200, hot.length ? { document: hot.slice(start, start + size), total: hot.length } : {});
      }
      case 'GET /api/v1/advertisement/position':
        return json(res, 200, ads.length ? { advertisement: ads } : {});
      default: {
        const file = req.method === 'GET' ? files.get(path) : undefined;
        if (file) {
          res.writeHead(200, {
            'content-type': file.type,
            'cache-control': file.cacheControl,
            'content-length': file.body.length,
          });
          res.end(file.body);
          return;
        }
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Not Found\n');
      }
    }
  });
  return Object.assign(stub, {
    settings,
    navigation,
    categories,
    accounts,
    calls,
    memberToken,
    adminToken,
    revokedToken,
    documents,
    hot,
    ads,
    delays,
    authorizations,
    files,
  });
}

/**
 * A fake backend and a gateway in front of it that counts what reaches Fastify, for the tests
 * of one file: started in beforeAll (`ready` gets them, after `prepare` has filled the backend),
 * closed in afterAll; the clock is the real one again after each test.
 */
export function useCountedSite(
  ready: (site: { backend: FakeBackend; gw: CountedGateway }) => void,
  prepare: (backend: FakeBackend) => void = () => undefined,
): void {
  let site: { backend: FakeBackend; gw: CountedGateway } | undefined;
  beforeAll(async () => {
    const backend = await startFakeBackend();
    prepare(backend);
    site = { backend, gw: await startCounted(backend.url) };
    ready(site);
  });
  afterAll(async () => {
    await site?.gw.close();
    await site?.backend.close();
  });
  afterEach(() => vi.useRealTimers());
}
