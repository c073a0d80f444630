import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  adminMenu,
  adminRoutes,
  articleIdentifierOf,
  buildAdminMenu,
  matchRoute,
  notFoundMessage,
  routes,
  toRouterPath,
  type RouteName,
} from '../../shared/routes';

const nameOf = (path: string) => matchRoute(path)?.route.name;

describe('route table', () => {
  it('serves the 7 public routes of docs/product.md §2 in the default layout without a token', () => {
    const cases: [string, string][] = [
      ['/', 'index'],
      ['/vip', 'vip'],
      ['/library', 'library'],
      ['/library/3', 'library-category'],
      ['/library/3/42', 'library-category-id'],
      ['/article', 'article-category'],
      ['/article/5/detail/9', 'article-category-detail-id'],
    ];
    for (const [path, name] of cases) {
      const match = matchRoute(path);
      expect(match?.route.name, path).toBe(name);
      expect(match?.route.layout).toBe('default');
      expect(match?.route.access).toBe('public');
    }
  });

  it('puts the member routes in the default layout, token-guarded except the OAuth callback', () => {
    const memberPaths = [
      '/member',
      '/member/order',
      '/member/profile',
      '/member/download',
      '/member/document',
      '/member/favorite',
      '/member/reading',
      '/member/article',
      '/member/article/set',
      '/member/message',
    ];
    for (const path of [...memberPaths, '/vip/checkout']) {
      expect(matchRoute(path)?.route, path).toMatchObject({ layout: 'default', access: 'token' });
    }
    expect(matchRoute('/oauth/callback')?.route).toMatchObject({ name: 'oauth-callback', access: 'public' });
    expect(nameOf('/vip/checkout')).toBe('vip-checkout');
    expect(matchRoute('/member/article')?.route).toMatchObject({ name: 'member-article', title: '我的文章' });
    expect(matchRoute('/member/article/set')?.route).toMatchObject({ name: 'member-article-set', title: '写文章' });
  });

  it('adds the search page for everybody and the member upload behind a token, in the default layout', () => {
    expect(matchRoute('/search')?.route).toMatchObject({
      name: 'search',
      layout: 'default',
      access: 'public',
      title: '搜索',
    });
    expect(matchRoute('/upload')?.route).toMatchObject({
      name: 'upload',
      layout: 'default',
      access: 'token',
      title: '上传文档',
    });
  });

  it('adds the 热门文档 page for everybody, its first screen the asked page of the ranking', () => {
    expect(matchRoute('/hot')?.route).toMatchObject({
      name: 'hot',
      layout: 'default',
      access: 'public',
      title: '热门文档',
    });
    const data = matchRoute('/hot')!.route.data!;
    expect(
      data({ params: {}, query: { page: '3' }, categories: [] }).map((c) => c.path + JSON.stringify(c.query)),
    ).toEqual(['/api/v1/document/hot{"page":3,"size":20}']);
    expect(data({ params: {}, query: { page: 'x' }, categories: [] })[0]!.key).toEqual(['document', 'hot', 1, 20]);
  });

  it('serves login, register and forgot-password in the auth layout', () => {
    for (const [path, name, title] of [
      ['/auth/login', 'auth-login', '登录'],
      ['/auth/register', 'auth-register', '注册'],
      ['/auth/forgot', 'auth-forgot', '找回密码'],
    ] as const) {
      expect(matchRoute(path)?.route).toMatchObject({ name, layout: 'auth', access: 'public', title });
    }
  });

  it('has every admin screen of docs/product.md §2 in the admin layout with admin access', () => {
    const singles = [
      'order',
      'banner',
      'report',
      'comment',
      'feedback',
      'attachment',
      'friendlink',
      'navigation',
      'advertisement',
    ];
    const user = ['list', 'sms', 'vip', 'group', 'permission', 'punishment'];
    const article = ['set', 'list', 'category', 'recycle'];
    const document = ['list', 'upload', 'recycle', 'category', 'language', 'searchrecord'];
    // the product's eleven, the credits (MOREDOC's 积分配置, the config category `score`), and
    // ours: the SMS settings (docs/api.md §6).
    const config = [
      'pay',
      'vip',
      'email',
      'oauth',
      'footer',
      'system',
      'captcha',
      'display',
      'download',
      'security',
      'converter',
      'score',
      'sms',
    ];
    const expected = [
      '/admin',
      '/admin/dashboard',
      ...singles.map((s) => `/admin/${s}`),
      ...user.map((s) => `/admin/user/${s}`),
      ...article.map((s) => `/admin/article/${s}`),
      ...document.map((s) => `/admin/document/${s}`),
      ...config.map((s) => `/admin/config/${s}`),
    ];
    expect(expected).toHaveLength(2 + 9 + 6 + 4 + 6 + 13);
    // Plus /admin/index, which the product's access rules always allow: MOREDOC's admin home.
    expect(adminRoutes.map((r) => r.path).sort()).toEqual([...expected, '/admin/index'].sort());
    for (const path of expected) {
      expect(matchRoute(path)?.route, path).toMatchObject({ path, layout: 'admin', access: 'admin' });
    }
    expect(nameOf('/admin/user/list')).toBe('admin-user-list');
    expect(nameOf('/admin/config/oauth')).toBe('admin-config-oauth');
    expect(nameOf('/admin/index')).toBe('admin-index');
  });

  it('gives every route a unique name and a Chinese title', () => {
    expect(new Set(routes.map((r) => r.name)).size).toBe(routes.length);
    for (const r of routes) expect(r.title, r.name).toMatch(/[\u4e00-\u9fff]/);
  });

  it('names each route once, an admin route after its path, in a union the compiler knows', () => {
    const names = routes.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const route of adminRoutes) expect(route.name).toBe(route.path.slice(1).split('/').join('-'));
    // Checked by the typecheck: the names are the table's, not any string.
    expectTypeOf<'admin-user-list' | 'library-category-id' | 'upload'>().toExtend<RouteName>();
    expectTypeOf<string>().not.toExtend<RouteName>();
  });
});

describe('matchRoute', () => {
  it('returns the parameters of the document page', () => {
    expect(matchRoute('/library/3/42')?.params).toEqual({ category: '3', id: '42' });
  });

  it('treats the article category as optional, before a list and before a detail', () => {
    expect(matchRoute('/article')).toMatchObject({ route: { name: 'article-category' }, params: {} });
    expect(matchRoute('/article/7')).toMatchObject({ route: { name: 'article-category' }, params: { category: '7' } });
    expect(matchRoute('/article/7/detail/12')).toMatchObject({
      route: { name: 'article-category-detail-id' },
      params: { category: '7', id: '12' },
    });
    expect(matchRoute('/article/detail/about')).toMatchObject({
      route: { name: 'article-category-detail-id' },
      params: { id: 'about' },
    });
  });

  it('takes an article identifier where a category would be, for MOREDOC’s footer links', () => {
    expect(matchRoute('/article/about')).toMatchObject({
      route: { name: 'article-category' },
      params: { category: 'about' },
    });
  });

  it('names the article a footer address shows by identifier, and none for a category, an id or another page', () => {
    for (const path of [
      '/article/privacy',
      '/article/privacy/',
      '/article/detail/privacy',
      '/article/5/detail/privacy',
    ])
      expect(articleIdentifierOf(path), path).toBe('privacy');
    for (const path of ['/article', '/article/5', '/article/detail/12', '/library/3', 'https://example.com/privacy'])
      expect(articleIdentifierOf(path), path).toBeUndefined();
  });

  it('matches nothing when an id fails its validity check', () => {
    for (const path of [
      '/library/0',
      '/library/abc',
      '/library/3/-1',
      '/library/3/01',
      '/library/3/1.5',
      '/article/-abc',
      '/article/a.b',
      '/article/7/detail/a b',
      '/article/detail/',
    ]) {
      expect(matchRoute(path), path).toBeUndefined();
    }
  });

  it('matches nothing for unknown paths, empty segments and relative paths', () => {
    for (const path of [
      '/nope',
      '/admin/user',
      '/admin/indexes',
      '//admin',
      '/member//order',
      'member',
      '',
      '/library/%E4%B8',
    ]) {
      expect(matchRoute(path), path).toBeUndefined();
    }
  });

  it('ignores a trailing slash, the query string and the hash, and decodes parameters', () => {
    expect(nameOf('/member/')).toBe('member');
    expect(nameOf('/admin/dashboard/?tab=1#top')).toBe('admin-dashboard');
    expect(matchRoute('/library/%33/4')?.params).toEqual({ category: '3', id: '4' });
  });

  it('phrases the 404 message as docs/product.md §2 does', () => {
    expect(notFoundMessage('/nope')).toBe('Page Not Found: /nope');
  });
});

describe('toRouterPath', () => {
  it('turns route patterns into React Router paths', () => {
    expect(toRouterPath('/article/{category?}')).toBe('/article/:category?');
    expect(toRouterPath('/article/{category?}/detail/{id}')).toBe('/article/:category?/detail/:id');
    expect(toRouterPath('/library/{category}/{id}')).toBe('/library/:category/:id');
    expect(toRouterPath('/')).toBe('/');
    expect(toRouterPath('/admin/user/list')).toBe('/admin/user/list');
  });
});

describe('admin menu', () => {
  const allPages = adminRoutes.map((r) => r.path);
  const labels = (entries: typeof adminMenu) => entries.map((e) => e.label);

  it('follows the admin menu of docs/product.md §2 (plus 处罚管理, 短信管理, 展示配置, 积分配置, 短信配置, 上传文档, 发布文章, 举报管理 and 广告管理): groups and single screens in order, with Chinese labels', () => {
    expect(labels(adminMenu)).toEqual([
      '文档管理',
      '文章管理',
      '用户管理',
      '订单管理',
      '轮播图管理',
      '广告管理',
      '导航管理',
      '友链管理',
      '评论管理',
      '举报管理',
      '意见反馈',
      '附件管理',
      '系统设置',
    ]);
    const group = (key: string) => adminMenu.find((e) => e.key === key)?.children?.map((c) => [c.path, c.label]);
    expect(group('document')).toEqual([
      ['/admin/document/category', '文档分类'],
      ['/admin/document/list', '文档列表'],
      ['/admin/document/upload', '上传文档'],
      ['/admin/document/language', '行业'],
      ['/admin/document/searchrecord', '搜索记录'],
      ['/admin/document/recycle', '回收站'],
    ]);
    expect(group('article')).toEqual([
      ['/admin/article/category', '文章分类'],
      ['/admin/article/list', '文章列表'],
      ['/admin/article/set', '发布文章'],
      ['/admin/article/recycle', '回收站'],
    ]);
    expect(group('user')).toEqual([
      ['/admin/user/list', '用户管理'],
      ['/admin/user/group', '角色管理'],
      ['/admin/user/permission', '权限管理'],
      ['/admin/user/punishment', '处罚管理'],
      ['/admin/user/vip', '会员管理'],
      ['/admin/user/sms', '短信管理'],
    ]);
    expect(group('config')).toEqual([
      ['/admin/config/system', '系统配置'],
      ['/admin/config/display', '展示配置'],
      ['/admin/config/pay', '支付配置'],
      ['/admin/config/oauth', '第三方登录'],
      ['/admin/config/vip', '会员配置'],
      ['/admin/config/footer', '底链配置'],
      ['/admin/config/captcha', '验证码配置'],
      ['/admin/config/security', '安全配置'],
      ['/admin/config/converter', '转换配置'],
      ['/admin/config/download', '下载配置'],
      ['/admin/config/score', '积分配置'],
      ['/admin/config/email', '邮箱配置'],
      ['/admin/config/sms', '短信配置'],
    ]);
  });

  it('marks the navigation entry public', () => {
    expect(adminMenu.find((e) => e.path === '/admin/navigation')).toMatchObject({ label: '导航管理', public: true });
    expect(adminMenu.filter((e) => e.public)).toHaveLength(1);
  });

  it('shows everything to a user holding every page', () => {
    expect(buildAdminMenu(allPages)).toEqual(adminMenu);
  });

  it('shows only the allowed entries, and a group only when one of its entries is allowed', () => {
    expect(buildAdminMenu(['/admin/user', '/admin/user/list'])).toEqual([
      {
        key: 'user',
        label: '用户管理',
        children: [{ key: 'admin-user-list', label: '用户管理', path: '/admin/user/list' }],
      },
    ]);
    expect(buildAdminMenu(['/admin/document'])).toEqual([]);
    expect(buildAdminMenu([])).toEqual([]);
  });

  it('hides the public navigation entry from users without its page, and ignores trailing slashes', () => {
    expect(buildAdminMenu(['/admin/banner']).map((e) => e.label)).toEqual(['轮播图管理']);
    expect(buildAdminMenu(['/admin/navigation/'])).toEqual([
      { key: 'admin-navigation', label: '导航管理', path: '/admin/navigation', public: true },
    ]);
  });
});
