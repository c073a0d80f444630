// The route table of docs/product.md §2: one list that the SPA router, the admin menu and the
// gateway's page guard all read. Paths use the route pattern syntax (docs/product.md §2): `{name}` is a segment
// parameter, `{name?}` an optional one. A public route also declares the API calls its first
// screen needs (`data`, from page-data.ts): the gateway inlines their answers into the page.
// The table is `as const`: its route names form the union `RouteName`, so every map over
// them (the head of a page, its crawler content, the SPA's screens) is checked for every route.
import type { ApiCall } from './api-call';
import {
  articleListPageCalls,
  articlePageCalls,
  documentPageCalls,
  homePageCalls,
  hotPageCalls,
  libraryPageCalls,
  liveAdsCall,
  searchPageCalls,
} from './page-data';
import type { Category } from './types/category';

export type Layout = 'default' | 'auth' | 'admin';
export type AccessKind = 'public' | 'token' | 'admin';

export interface RouteMenu {
  label: string;
  /** Key of the menu group (see `adminMenuGroups`), or null for a top-level entry. */
  group: string | null;
  /** docs/product.md marks the navigation entry "public": it edits what the public site header shows. */
  public?: boolean;
}

/** A route named N; `RouteDef` is any route of the table. */
export interface RouteOf<N extends string> {
  name: N;
  path: string;
  layout: Layout;
  access: AccessKind;
  title: string;
  menu?: RouteMenu;
  /** Validity checks per parameter; a failing check makes the path match nothing (→ 404). */
  params?: ParamChecks;
  /**
   * The calls the first screen makes, from the path's parameters, the query string (first value of each key) and the
   * categories.
   */
  data?: (page: PageAddress) => readonly ApiCall[];
}

type ParamChecks = Readonly<Record<string, (value: string) => boolean>>;

/** A page's address as its data declaration reads it. */
export interface PageAddress {
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  /** Every category (the start data's): `/article/{x}` lists the category x, or shows the article x. */
  categories: readonly Category[];
}

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

export interface AdminMenuEntry {
  key: string;
  label: string;
  path?: string;
  public?: boolean;
  children?: AdminMenuEntry[];
}

const POSITIVE_INT = /^[1-9][0-9]{0,15}$/;
/** Database ids: positive integers (no sign, no leading zero, at most 16 digits). */
export function isPositiveId(value: string): boolean {
  return POSITIVE_INT.test(value);
}

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** Article ids: a numeric id or a MOREDOC article identifier (slug such as `about`). */
export function isArticleKey(value: string): boolean {
  return IDENTIFIER.test(value);
}

/** A route of the table, its name, layout and access known to the compiler. */
type TableRoute<N extends string, L extends Layout, A extends AccessKind> = RouteOf<N> & { layout: L; access: A };

function publicRoute<N extends string>(
  name: N,
  path: string,
  title: string,
  params?: ParamChecks,
  data?: RouteOf<N>['data'],
): TableRoute<N, 'default', 'public'> {
  return {
    name,
    path,
    layout: 'default',
    access: 'public',
    title,
    ...(params ? { params } : {}),
    ...(data ? { data } : {}),
  };
}

function memberRoute<N extends string>(name: N, path: string, title: string): TableRoute<N, 'default', 'token'> {
  return { name, path, layout: 'default', access: 'token', title };
}

function authRoute<N extends string>(name: N, path: string, title: string): TableRoute<N, 'auth', 'public'> {
  return { name, path, layout: 'auth', access: 'public', title };
}

/** `a/b/c` → `a-b-c`, as a type. */
type Dashed<S extends string> = S extends `${infer Head}/${infer Rest}` ? `${Head}-${Dashed<Rest>}` : S;
/**
 * An admin route's name: its path without the leading slash, slashes as dashes (`/admin/user/list` →
 * `admin-user-list`).
 */
type AdminName<P extends string> = P extends `/${infer Rest}` ? Dashed<Rest> : never;

function adminRoute<P extends `/admin${string}`>(
  path: P,
  title: string,
  menu?: RouteMenu,
): TableRoute<AdminName<P>, 'admin', 'admin'> {
  // What AdminName<P> spells out for the compiler.
  const name = path.slice(1).split('/').join('-') as AdminName<P>;
  return { name, path, layout: 'admin', access: 'admin', title, ...(menu ? { menu } : {}) };
}

/** Menu groups of the admin menu (docs/product.md §2), in menu order. */
export const adminMenuGroups: readonly { key: string; label: string }[] = [
  { key: 'document', label: '文档管理' },
  { key: 'article', label: '文章管理' },
  { key: 'user', label: '用户管理' },
  { key: 'config', label: '系统设置' },
];

const inGroup = (group: string, label: string): RouteMenu => ({ label, group });
const single = (label: string, extra?: { public: true }): RouteMenu => ({ label, group: null, ...extra });

const ROUTE_TABLE = [
  // Public layout
  publicRoute('index', '/', '首页', undefined, homePageCalls),
  publicRoute('vip', '/vip', '开通 VIP'),
  publicRoute('library', '/library', '文库资料', undefined, ({ query }) => libraryPageCalls(undefined, query)),
  publicRoute('library-category', '/library/{category}', '文档分类', { category: isPositiveId }, ({ params, query }) =>
    libraryPageCalls(Number(params.category), query),
  ),
  publicRoute(
    'library-category-id',
    '/library/{category}/{id}',
    '文档详情',
    { category: isPositiveId, id: isPositiveId },
    ({ params }) => documentPageCalls(Number(params.id)),
  ),
  // `/article/{x}`: the category x, or else the article whose identifier is x, so MOREDOC's
  // footer links (`/article/about`) keep working. `detail` only ever starts a detail path.
  publicRoute(
    'article-category',
    '/article/{category?}',
    '文章资讯',
    { category: (x) => isArticleKey(x) && x !== 'detail' },
    ({ params, query, categories }) => articleListPageCalls(categories, params.category, query),
  ),
  publicRoute(
    'article-category-detail-id',
    '/article/{category?}/detail/{id}',
    '文章详情',
    {
      category: isPositiveId,
      id: isArticleKey,
    },
    ({ params }) => articlePageCalls(params.id ?? '', params.category ? Number(params.category) : undefined),
  ),
  // Not docs/product.md routes: the search results (linked from every public page's header), the
  // 热门文档 ranking, and the member's upload, which needs a token like the member pages (the
  // screen then asks the server for the upload right).
  publicRoute('search', '/search', '搜索', undefined, ({ query }) => searchPageCalls(query)),
  publicRoute('hot', '/hot', '热门文档', undefined, ({ query }) => hotPageCalls(query)),
  { name: 'upload', path: '/upload', layout: 'default', access: 'token', title: '上传文档' },

  // Member routes (default layout). The OAuth callback is where a login completes, so it
  // cannot need a token: it is listed with the member routes by docs/product.md but open to everyone.
  memberRoute('member', '/member', '个人中心'),
  memberRoute('member-order', '/member/order', '我的订单'),
  memberRoute('member-profile', '/member/profile', '个人资料'),
  memberRoute('member-download', '/member/download', '我的下载'),
  memberRoute('member-document', '/member/document', '我的文档'),
  memberRoute('member-favorite', '/member/favorite', '我的收藏'),
  memberRoute('member-reading', '/member/reading', '最近阅读'),
  memberRoute('member-article', '/member/article', '我的文章'),
  memberRoute('member-article-set', '/member/article/set', '写文章'),
  memberRoute('member-message', '/member/message', '我的消息'),
  memberRoute('vip-checkout', '/vip/checkout', '购买 VIP'),
  publicRoute('oauth-callback', '/oauth/callback', '第三方登录'),

  // Auth layout
  authRoute('auth-login', '/auth/login', '登录'),
  authRoute('auth-register', '/auth/register', '注册'),
  authRoute('auth-forgot', '/auth/forgot', '找回密码'),

  // Admin layout
  adminRoute('/admin', '管理后台'),
  // Not in the product's route list, but its access rules always allow it: MOREDOC's admin home.
  adminRoute('/admin/index', '控制面板'),
  adminRoute('/admin/dashboard', '控制面板'),
  adminRoute('/admin/order', '订单管理', single('订单管理')),
  adminRoute('/admin/banner', '轮播图管理', single('轮播图管理')),
  adminRoute('/admin/report', '举报管理', single('举报管理')),
  adminRoute('/admin/comment', '评论管理', single('评论管理')),
  adminRoute('/admin/feedback', '意见反馈', single('意见反馈')),
  adminRoute('/admin/attachment', '附件管理', single('附件管理')),
  adminRoute('/admin/friendlink', '友链管理', single('友链管理')),
  adminRoute('/admin/navigation', '导航管理', single('导航管理', { public: true })),
  adminRoute('/admin/advertisement', '广告管理', single('广告管理')),

  adminRoute('/admin/user/list', '用户管理', inGroup('user', '用户管理')),
  adminRoute('/admin/user/sms', '短信管理', inGroup('user', '短信管理')),
  adminRoute('/admin/user/vip', '会员管理', inGroup('user', '会员管理')),
  adminRoute('/admin/user/group', '角色管理', inGroup('user', '角色管理')),
  adminRoute('/admin/user/permission', '权限管理', inGroup('user', '权限管理')),
  adminRoute('/admin/user/punishment', '处罚管理', inGroup('user', '处罚管理')),

  adminRoute('/admin/article/set', '发布文章', inGroup('article', '发布文章')),
  adminRoute('/admin/article/list', '文章列表', inGroup('article', '文章列表')),
  adminRoute('/admin/article/category', '文章分类', inGroup('article', '文章分类')),
  adminRoute('/admin/article/recycle', '文章回收站', inGroup('article', '回收站')),

  adminRoute('/admin/document/list', '文档列表', inGroup('document', '文档列表')),
  adminRoute('/admin/document/upload', '上传文档', inGroup('document', '上传文档')),
  adminRoute('/admin/document/recycle', '文档回收站', inGroup('document', '回收站')),
  adminRoute('/admin/document/category', '文档分类', inGroup('document', '文档分类')),
  adminRoute('/admin/document/language', '行业管理', inGroup('document', '行业')),
  adminRoute('/admin/document/searchrecord', '搜索记录', inGroup('document', '搜索记录')),

  adminRoute('/admin/config/pay', '支付配置', inGroup('config', '支付配置')),
  adminRoute('/admin/config/vip', '会员配置', inGroup('config', '会员配置')),
  adminRoute('/admin/config/email', '邮箱配置', inGroup('config', '邮箱配置')),
  adminRoute('/admin/config/oauth', '第三方登录配置', inGroup('config', '第三方登录')),
  adminRoute('/admin/config/footer', '底链配置', inGroup('config', '底链配置')),
  adminRoute('/admin/config/system', '系统配置', inGroup('config', '系统配置')),
  adminRoute('/admin/config/captcha', '验证码配置', inGroup('config', '验证码配置')),
  adminRoute('/admin/config/display', '展示配置', inGroup('config', '展示配置')),
  adminRoute('/admin/config/download', '下载配置', inGroup('config', '下载配置')),
  adminRoute('/admin/config/score', '积分配置', inGroup('config', '积分配置')),
  adminRoute('/admin/config/security', '安全配置', inGroup('config', '安全配置')),
  adminRoute('/admin/config/converter', '转换配置', inGroup('config', '转换配置')),
  // Ours: the SMS provider, templates and sending limits (docs/api.md §6).
  adminRoute('/admin/config/sms', '短信配置', inGroup('config', '短信配置')),
] as const;

type TableEntry = (typeof ROUTE_TABLE)[number];
/** Every route's name. */
export type RouteName = TableEntry['name'];
/** The routes of the admin layout. */
export type AdminRouteName = Extract<TableEntry, { layout: 'admin' }>['name'];
/** The pages of the public site anyone may open (default layout, public access). */
export type PublicPageName = Extract<TableEntry, { layout: 'default'; access: 'public' }>['name'];

export type RouteDef = RouteOf<RouteName>;

export const routes: readonly RouteDef[] = ROUTE_TABLE;

export const adminRoutes: readonly RouteDef[] = routes.filter((r) => r.layout === 'admin');

// Order of the admin menu (docs/product.md §2): the entries within a group, and the top-level
// entries (groups and single screens) in the order docs/product.md lists them.
const MENU_ORDER: Readonly<Record<string, readonly string[]>> = {
  // the product's menu plus the batch upload, which needs an entry to be reached.
  document: ['category', 'list', 'upload', 'language', 'searchrecord', 'recycle'].map((s) => `/admin/document/${s}`),
  article: ['category', 'list', 'set', 'recycle'].map((s) => `/admin/article/${s}`),
  // the product's menu plus screens it lists as routes only, which need an entry to be reached:
  // punishments (MOREDOC's 处罚管理), SMS (短信管理), the display settings (MOREDOC's 展示配置),
  // the credits (MOREDOC's 积分配置: without it a site could not name its credits or set what
  // registering, signing in and uploading earn), writing an article (发布文章), our SMS settings,
  // and the reports (举报管理, below).
  user: ['list', 'group', 'permission', 'punishment', 'vip', 'sms'].map((s) => `/admin/user/${s}`),
  config: [
    'system',
    'display',
    'pay',
    'oauth',
    'vip',
    'footer',
    'captcha',
    'security',
    'converter',
    'download',
    'score',
    'email',
    'sms',
  ].map((s) => `/admin/config/${s}`),
};
// The ads screen (a route of docs/product.md without a menu entry) sits next to the banners.
const TOP_ORDER: readonly string[] = [
  'document',
  'article',
  'user',
  '/admin/order',
  '/admin/banner',
  '/admin/advertisement',
  '/admin/navigation',
  '/admin/friendlink',
  '/admin/comment',
  '/admin/report',
  '/admin/feedback',
  '/admin/attachment',
  'config',
];

function menuLeaf(route: RouteDef): AdminMenuEntry {
  const menu = route.menu as RouteMenu;
  return { key: route.name, label: menu.label, path: route.path, ...(menu.public ? { public: true } : {}) };
}

function buildFullMenu(): AdminMenuEntry[] {
  const byPath = new Map(adminRoutes.filter((r) => r.menu).map((r) => [r.path, r]));
  const take = (path: string): RouteDef => {
    const route = byPath.get(path);
    if (!route) throw new Error(`admin menu: no route with a menu entry for ${path}`);
    return route;
  };
  return TOP_ORDER.map((item) => {
    const group = adminMenuGroups.find((g) => g.key === item);
    if (!group) return menuLeaf(take(item));
    const children = (MENU_ORDER[group.key] ?? []).map((p) => menuLeaf(take(p)));
    return { key: group.key, label: group.label, children };
  });
}

/** The whole admin menu of docs/product.md, before filtering by the user's pages. */
export const adminMenu: readonly AdminMenuEntry[] = buildFullMenu();

function pageKey(page: string): string {
  const trimmed = page.length > 1 && page.endsWith('/') ? page.slice(0, -1) : page;
  return trimmed.toLowerCase();
}

/**
 * The admin menu a user sees: an entry is shown when its page is in allowPages (trailing
 * slash ignored), a group when at least one of its entries is. Entries marked public follow
 * the same rule, so the menu never links to a page the access guard would refuse.
 */
export function buildAdminMenu(allowPages: readonly string[]): AdminMenuEntry[] {
  const allowed = new Set(allowPages.map(pageKey));
  const result: AdminMenuEntry[] = [];
  for (const entry of adminMenu) {
    if (entry.children) {
      const children = entry.children.filter((c) => c.path !== undefined && allowed.has(pageKey(c.path)));
      if (children.length > 0) result.push({ ...entry, children });
    } else if (entry.path !== undefined && allowed.has(pageKey(entry.path))) {
      result.push({ ...entry });
    }
  }
  return result;
}

type Segment = { kind: 'literal'; value: string } | { kind: 'param'; name: string; optional: boolean };

function parsePattern(pattern: string): Segment[] {
  return pattern
    .split('/')
    .filter((s) => s !== '')
    .map((s): Segment => {
      const m = /^\{([A-Za-z_][A-Za-z0-9_]*)(\?)?\}$/.exec(s);
      return m ? { kind: 'param', name: m[1] as string, optional: m[2] === '?' } : { kind: 'literal', value: s };
    });
}

/** route pattern → React Router path: `/article/{category?}` → `/article/:category?`. */
export function toRouterPath(pattern: string): string {
  const segments = parsePattern(pattern).map((s) =>
    s.kind === 'literal' ? s.value : `:${s.name}${s.optional ? '?' : ''}`,
  );
  return `/${segments.join('/')}`;
}

// Backtracking match: an optional parameter first tries to take the segment, then to be
// absent; a parameter only takes a segment that passes its validity check.
function matchSegments(
  pattern: readonly Segment[],
  parts: readonly string[],
  checks: ParamChecks,
  params: Record<string, string>,
): Record<string, string> | undefined {
  const [head, ...rest] = pattern;
  if (!head) return parts.length === 0 ? params : undefined;
  const part = parts[0];
  if (head.kind === 'literal') {
    return part === head.value ? matchSegments(rest, parts.slice(1), checks, params) : undefined;
  }
  const check = checks[head.name];
  if (part !== undefined && (!check || check(part))) {
    const taken = matchSegments(rest, parts.slice(1), checks, { ...params, [head.name]: part });
    if (taken) return taken;
  }
  return head.optional ? matchSegments(rest, parts, checks, params) : undefined;
}

const compiled = routes.map((route) => ({ route, segments: parsePattern(route.path) }));

/**
 * The route a path renders (a query string or hash is ignored), with its percent-decoded parameters, or
 * undefined when nothing matches or a parameter fails its validity check (→ the SPA's
 * 404 'Page Not Found: {path}'). A trailing slash is ignored; matching is case-sensitive.
 * The answer is shared by every caller of the same path: do not change it.
 */
export function matchRoute(path: string): RouteMatch | undefined {
  const pathname = path.split(/[?#]/, 1)[0] as string;
  // The gateway asks for the same few paths on every page it serves: remember the answers.
  if (matched.has(pathname)) return matched.get(pathname);
  const match = findRoute(pathname);
  if (matched.size >= MATCHES_KEPT) matched.clear();
  matched.set(pathname, match);
  return match;
}

/**
 * The identifier of the article a path of the site shows by identifier (`/article/about`,
 * `/article/detail/about`, `/article/5/detail/about`); undefined for any other address, and for
 * an all-digit key, which is a category (`/article/5`) or an article's id.
 */
export function articleIdentifierOf(path: string): string | undefined {
  const match = matchRoute(path);
  const key =
    match?.route.name === 'article-category'
      ? match.params.category
      : match?.route.name === 'article-category-detail-id'
        ? match.params.id
        : undefined;
  return key === undefined || /^\d+$/.test(key) ? undefined : key;
}

/** How many paths' matches are kept; all are forgotten when there are more. */
const MATCHES_KEPT = 2_000;
const matched = new Map<string, RouteMatch | undefined>();

function findRoute(pathname: string): RouteMatch | undefined {
  if (!pathname.startsWith('/')) return undefined;
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const raw = trimmed === '/' ? [] : trimmed.slice(1).split('/');
  let parts: string[];
  try {
    parts = raw.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
  if (parts.some((p) => p === '')) return undefined;
  for (const { route, segments } of compiled) {
    const params = matchSegments(segments, parts, route.params ?? {}, {});
    if (params) return { route, params };
  }
  return undefined;
}

/** The message of the SPA's fatal 404 (docs/product.md §2, §8). */
export function notFoundMessage(path: string): string {
  return `Page Not Found: ${path}`;
}

/**
 * The calls whose answers the page at `match` starts with: those of its layout (the ads of
 * the default layout's slots) and, for a public route, those of its first screen.
 */
export function routeDataCalls(
  match: RouteMatch,
  query: Readonly<Record<string, string>>,
  categories: readonly Category[],
): ApiCall[] {
  const { route, params } = match;
  const calls: ApiCall[] = route.layout === 'default' ? [liveAdsCall()] : [];
  if (route.access === 'public' && route.data) calls.push(...route.data({ params, query, categories }));
  return calls;
}
