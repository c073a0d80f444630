import { describe, expect, it } from 'vitest';
import {
  ALWAYS_ALLOWED_ADMIN_PAGES,
  ALWAYS_OPEN_PAGES,
  decideAccess,
  deniedAdminRoute,
  deniedLocation,
  isAdminScreen,
  isAlwaysOpen,
  loginLocation,
  normalizePath,
  pathGuard,
  safeRedirect,
  siteSwitchesFrom,
  type AccessDecision,
  type Session,
  type SiteSwitches,
} from '../../shared/access';

const guest: Session = { loggedIn: false, allowPages: [] };
const member: Session = { loggedIn: true, allowPages: [] };
const userAdmin: Session = { loggedIn: true, allowPages: ['/admin/user', '/admin/user/list'] };

describe('normalizePath', () => {
  it('keeps canonical paths as they are', () => {
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('/admin/user/list')).toBe('/admin/user/list');
  });

  it('percent-decodes once, collapses slashes, resolves dot segments and drops a trailing slash', () => {
    expect(normalizePath('/%61dmin')).toBe('/admin');
    expect(normalizePath('//admin')).toBe('/admin');
    expect(normalizePath('/x/../admin/')).toBe('/admin');
    expect(normalizePath('/./member/./order//')).toBe('/member/order');
    expect(normalizePath('/../../admin')).toBe('/admin');
    expect(normalizePath('/%2e%2e/%2E/member')).toBe('/member');
    expect(normalizePath('/library/%E4%B8%AD%E6%96%87')).toBe('/library/中文');
  });

  it('cuts matrix parameters, so /admin;x is /admin', () => {
    expect(normalizePath('/admin;x')).toBe('/admin');
    expect(normalizePath('/admin;x/user/list;jsessionid=1')).toBe('/admin/user/list');
    expect(normalizePath('/admin%3Bx')).toBe('/admin');
    expect(normalizePath('/x/..;/admin')).toBe('/admin');
    expect(normalizePath('/;/member')).toBe('/member');
  });

  it('ignores the query string and the hash', () => {
    expect(normalizePath('/member/?a=1#b')).toBe('/member');
  });

  it('refuses encoded slashes, backslashes, control characters and bad or double encoding', () => {
    for (const raw of [
      '/admin%2Fuser',
      '/admin%2fuser',
      '/%5Cadmin',
      '/\\admin',
      '/admin\\user',
      '/adm\tin',
      '/admin%0a',
      '/admin%00',
      '/%E4%B8',
      '/100%',
      '/%2561dmin',
      'admin',
      '',
      'http://evil.com/admin',
      '/a\u0085b',
    ]) {
      expect(normalizePath(raw), JSON.stringify(raw)).toBeNull();
    }
  });
});

describe('pathGuard', () => {
  it('needs a token for /member…, /vip/checkout and /upload, a token and the page for /admin…', () => {
    expect(pathGuard('/member')).toBe('token');
    expect(pathGuard('/member/order')).toBe('token');
    expect(pathGuard('/vip/checkout')).toBe('token');
    expect(pathGuard('/admin')).toBe('admin');
    expect(pathGuard('/admin/config/system')).toBe('admin');
    expect(pathGuard('/ADMIN/user/list')).toBe('admin');
    expect(pathGuard('/vip')).toBe('public');
    expect(pathGuard('/oauth/callback')).toBe('public');
    expect(pathGuard('/library/1/2')).toBe('public');
    expect(pathGuard('/search')).toBe('public');
    expect(pathGuard('/upload')).toBe('token');
    expect(pathGuard('/UPLOAD')).toBe('token');
    expect(pathGuard('/upload/x')).toBe('public');
  });
});

describe('decideAccess', () => {
  it('lets anybody open public pages', () => {
    for (const path of ['/', '/vip', '/library/3/42', '/auth/login', '/oauth/callback', '/article']) {
      expect(decideAccess(path, '', guest), path).toEqual({ kind: 'allow' });
    }
  });

  it('redirects /member to login with the original path and query, encoded', () => {
    expect(decideAccess('/member', '', guest)).toEqual({ kind: 'login', location: '/auth/login?redirect=%2Fmember' });
    expect(decideAccess('/member/order', '?page=2&size=10', guest)).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Fmember%2Forder%3Fpage%3D2%26size%3D10',
    });
    expect(decideAccess('/member/order', 'page=2', guest)).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Fmember%2Forder%3Fpage%3D2',
    });
  });

  it('keeps Chinese characters of the original path in the redirect', () => {
    const decision = decideAccess('/member/%E4%B8%AD', '?wd=%E6%96%87', guest);
    expect(decision).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Fmember%2F%25E4%25B8%25AD%3Fwd%3D%25E6%2596%2587',
    });
    const redirect = new URLSearchParams((decision as { location: string }).location.split('?')[1]).get('redirect');
    expect(redirect).toBe('/member/%E4%B8%AD?wd=%E6%96%87');
  });

  it('redirects /vip/checkout and every admin path to login without a token', () => {
    expect(decideAccess('/vip/checkout', '?plan=1', guest)).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Fvip%2Fcheckout%3Fplan%3D1',
    });
    expect(decideAccess('/admin', '', guest)).toEqual({ kind: 'login', location: '/auth/login?redirect=%2Fadmin' });
    expect(decideAccess('/admin/user/list/', '', guest)).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Fadmin%2Fuser%2Flist',
    });
  });

  it('lets any logged-in user into the member area', () => {
    expect(decideAccess('/member/profile', '', member)).toEqual({ kind: 'allow' });
    expect(decideAccess('/vip/checkout', '', member)).toEqual({ kind: 'allow' });
  });

  it('always lets a logged-in user open /admin, /admin/index and /admin/dashboard', () => {
    for (const page of ALWAYS_ALLOWED_ADMIN_PAGES) {
      expect(decideAccess(page, '', member), page).toEqual({ kind: 'allow' });
      expect(decideAccess(`${page}/`, '', member), page).toEqual({ kind: 'allow' });
    }
    expect([...ALWAYS_ALLOWED_ADMIN_PAGES].sort()).toEqual(['/admin', '/admin/dashboard', '/admin/index']);
  });

  it('lets a logged-in user open the admin pages in allowPages, trailing slash ignored', () => {
    expect(decideAccess('/admin/user/list', '', userAdmin)).toEqual({ kind: 'allow' });
    expect(decideAccess('/admin/user/list/', '', userAdmin)).toEqual({ kind: 'allow' });
    expect(decideAccess('/admin/banner', '', { loggedIn: true, allowPages: ['/admin/banner/'] })).toEqual({
      kind: 'allow',
    });
  });

  it('sends a logged-in user home from admin pages outside allowPages, naming the page refused', () => {
    expect(decideAccess('/admin/user/group', '', userAdmin)).toEqual({
      kind: 'home',
      location: '/?denied=%2Fadmin%2Fuser%2Fgroup',
    });
    expect(decideAccess('/admin/config/system/', '?x=1', member)).toEqual({
      kind: 'home',
      location: '/?denied=%2Fadmin%2Fconfig%2Fsystem',
    });
  });

  it('reads back from the home page the admin screen refused, and nothing else', () => {
    expect(deniedAdminRoute('?denied=%2Fadmin%2Forder')?.title).toBe('订单管理');
    expect(deniedAdminRoute('denied=/ADMIN/Order/')?.title).toBe('订单管理');
    for (const query of ['', '?denied=', '?denied=%2Fadmin%2Fnothing', '?denied=%2Flibrary', '?denied=%2F%2Fevil.com'])
      expect(deniedAdminRoute(query), query).toBeUndefined();
  });

  it('serves a path under /admin that is no admin screen to a logged-in user, for the 404 screen', () => {
    for (const path of ['/admin/nothing', '/admin/order/notification', '/ADMIN/Nothing/', '/administrator']) {
      expect(decideAccess(path, '', member), path).toEqual({ kind: 'allow' });
      expect(decideAccess(path, '', userAdmin), path).toEqual({ kind: 'allow' });
    }
    expect(decideAccess('/admin/nothing', '', guest)).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Fadmin%2Fnothing',
    });
    expect(isAdminScreen('/admin/order')).toBe(true);
    expect(isAdminScreen('/Admin/Order')).toBe(true);
    expect(isAdminScreen('/admin/order/notification')).toBe(false);
  });

  it('guards the paths that normalise to a guarded path', () => {
    for (const path of [
      '//admin/config/system',
      '/x/../admin/config/system/',
      '/%61dmin/config/system',
      '/admin;x/config/system',
      '/ADMIN/config/system',
      '/./admin/./config/system',
    ]) {
      expect(decideAccess(path, '', member), path).toEqual({
        kind: 'home',
        location: '/?denied=%2Fadmin%2Fconfig%2Fsystem',
      });
    }
    expect(decideAccess('/admin;x', '', guest)).toEqual({ kind: 'login', location: '/auth/login?redirect=%2Fadmin' });
    expect(decideAccess('//member', '', guest)).toEqual({ kind: 'login', location: '/auth/login?redirect=%2Fmember' });
    expect(decideAccess('/library/../member/order', '', guest)).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Fmember%2Forder',
    });
  });

  it('refuses paths that cannot be normalised', () => {
    for (const path of ['/admin%2fconfig', '/%5cadmin', '/admin\\config', '/member%0a', '/%E4%B8']) {
      expect(decideAccess(path, '', userAdmin), path).toEqual({ kind: 'refused' });
    }
  });
});

describe('decideAccess with the site switches', () => {
  type Outcome = 'allow' | 'login' | 'home' | 'closed';
  const who: Record<'anonymous' | 'member' | 'admin', Session> = { anonymous: guest, member, admin: userAdmin };
  const switches: Record<'off' | 'loginRequired' | 'closed' | 'both', SiteSwitches> = {
    off: {},
    loginRequired: { loginRequired: true },
    closed: { closed: true },
    both: { closed: true, loginRequired: true },
  };
  // [path with query, outcome per switch setting for anonymous / member / admin]
  const matrix: Array<[string, Record<keyof typeof switches, [Outcome, Outcome, Outcome]>]> = [
    [
      '/',
      {
        off: ['allow', 'allow', 'allow'],
        loginRequired: ['login', 'allow', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/library?wd=%E6%96%87',
      {
        off: ['allow', 'allow', 'allow'],
        loginRequired: ['login', 'allow', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/no/such/page',
      {
        off: ['allow', 'allow', 'allow'],
        loginRequired: ['login', 'allow', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/auth/login?redirect=%2Flibrary',
      {
        off: ['allow', 'allow', 'allow'],
        loginRequired: ['allow', 'allow', 'allow'],
        closed: ['allow', 'allow', 'allow'],
        both: ['allow', 'allow', 'allow'],
      },
    ],
    [
      '/auth/forgot',
      {
        off: ['allow', 'allow', 'allow'],
        loginRequired: ['allow', 'allow', 'allow'],
        closed: ['allow', 'allow', 'allow'],
        both: ['allow', 'allow', 'allow'],
      },
    ],
    [
      '/oauth/callback?code=c&state=s',
      {
        off: ['allow', 'allow', 'allow'],
        loginRequired: ['allow', 'allow', 'allow'],
        closed: ['allow', 'allow', 'allow'],
        both: ['allow', 'allow', 'allow'],
      },
    ],
    [
      '/auth/register',
      {
        off: ['allow', 'allow', 'allow'],
        loginRequired: ['allow', 'allow', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/member/order?page=2',
      {
        off: ['login', 'allow', 'allow'],
        loginRequired: ['login', 'allow', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/vip/checkout',
      {
        off: ['login', 'allow', 'allow'],
        loginRequired: ['login', 'allow', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/admin/dashboard',
      {
        off: ['login', 'allow', 'allow'],
        loginRequired: ['login', 'allow', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/admin/user/list',
      {
        off: ['login', 'home', 'allow'],
        loginRequired: ['login', 'home', 'allow'],
        closed: ['login', 'closed', 'allow'],
        both: ['login', 'closed', 'allow'],
      },
    ],
    [
      '/admin/config/security',
      {
        off: ['login', 'home', 'home'],
        loginRequired: ['login', 'home', 'home'],
        closed: ['login', 'closed', 'home'],
        both: ['login', 'closed', 'home'],
      },
    ],
  ];

  function expected(outcome: Outcome, pathWithQuery: string): AccessDecision {
    if (outcome === 'login') return { kind: 'login', location: loginLocation(pathWithQuery) };
    if (outcome === 'home') return { kind: 'home', location: deniedLocation(pathWithQuery.split('?')[0] as string) };
    return { kind: outcome };
  }

  for (const [pathWithQuery, bySwitch] of matrix) {
    const [path = '', query = ''] = pathWithQuery.split('?');
    for (const [setting, outcomes] of Object.entries(bySwitch) as Array<
      [keyof typeof switches, [Outcome, Outcome, Outcome]]
    >) {
      (['anonymous', 'member', 'admin'] as const).forEach((name, i) => {
        const outcome = outcomes[i]!;
        it(`${setting}: ${name} → ${pathWithQuery} → ${outcome}`, () => {
          const decision = decideAccess(path, query, { ...who[name], site: switches[setting] });
          expect(decision).toEqual(expected(outcome, pathWithQuery));
        });
      });
    }
  }

  it('sends an anonymous visitor to login with the original path and query, as the member guard does', () => {
    expect(decideAccess('/library', '?wd=%E6%96%87&page=2', { ...guest, site: { loginRequired: true } })).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Flibrary%3Fwd%3D%25E6%2596%2587%26page%3D2',
    });
    expect(decideAccess('/library', '', { ...guest, site: { closed: true } })).toEqual({
      kind: 'login',
      location: '/auth/login?redirect=%2Flibrary',
    });
    // home and the register page have nothing worth returning to
    expect(decideAccess('/', '', { ...guest, site: { closed: true } })).toEqual({
      kind: 'login',
      location: '/auth/login',
    });
    expect(decideAccess('/auth/register', '', { ...guest, site: { closed: true } })).toEqual({
      kind: 'login',
      location: '/auth/login',
    });
  });

  it('applies the switches to the canonical path, so spelling variants change nothing', () => {
    const closed = { ...member, site: { closed: true } };
    for (const path of ['/AUTH/LOGIN', '/auth/login/', '//auth/./login', '/auth/login;x']) {
      expect(decideAccess(path, '', closed), path).toEqual({ kind: 'allow' });
    }
    for (const path of ['/auth/login/x', '/auth/loginx', '/x/../member', '/%61uth/register']) {
      expect(decideAccess(path, '', closed), path).toEqual({ kind: 'closed' });
    }
    expect(decideAccess('/admin%2fx', '', closed)).toEqual({ kind: 'refused' });
  });

  it('counts a user with any admin page as an admin, and one without as a member', () => {
    const site = { closed: true };
    expect(decideAccess('/', '', { loggedIn: true, allowPages: ['/admin/banner'], site })).toEqual({ kind: 'allow' });
    expect(decideAccess('/', '', { loggedIn: true, allowPages: [], site })).toEqual({ kind: 'closed' });
  });

  it("opens the footer's article pages to visitors of a site open to members only, not of a closed one", () => {
    const footerArticles = ['about', 'agreement', 'privacy'];
    const membersOnly = { ...guest, site: { loginRequired: true, footerArticles } };
    for (const path of [
      '/article/detail/agreement',
      '/article/agreement',
      '/article/detail/privacy/',
      '/article/about',
    ])
      expect(decideAccess(path, '', membersOnly), path).toEqual({ kind: 'allow' });
    for (const path of ['/article/detail/news', '/article/detail/12', '/article/detail/agreement/x'])
      expect(decideAccess(path, '', membersOnly).kind, path).toBe('login');
    expect(decideAccess('/article/detail/agreement', '', { ...guest, site: { closed: true, footerArticles } })).toEqual(
      {
        kind: 'login',
        location: '/auth/login?redirect=%2Farticle%2Fdetail%2Fagreement',
      },
    );
  });

  it('treats absent or false switches as off', () => {
    expect(decideAccess('/', '', { ...guest, site: { closed: false, loginRequired: false } })).toEqual({
      kind: 'allow',
    });
    expect(decideAccess('/member', '', { ...member, site: undefined })).toEqual({ kind: 'allow' });
  });
});

describe('siteSwitchesFrom', () => {
  it('reads is_close and login_required from the public settings', () => {
    expect(siteSwitchesFrom({ security: { is_close: true, close_statement: '维护中', login_required: true } })).toEqual(
      { closed: true, loginRequired: true },
    );
    expect(siteSwitchesFrom({ security: { enable_register: true } })).toEqual({ closed: false, loginRequired: false });
  });

  it("names the footer's article pages, not its other addresses", () => {
    expect(
      siteSwitchesFrom({
        security: { login_required: true },
        footer: { about: '/article/about', agreement: '/article/detail/agreement', feedback: '/feedback', contact: '' },
      }),
    ).toEqual({ closed: false, loginRequired: true, footerArticles: ['about', 'agreement'] });
  });

  it('treats omitted sections, unknown settings and non-boolean values as off', () => {
    expect(siteSwitchesFrom({})).toEqual({ closed: false, loginRequired: false });
    expect(siteSwitchesFrom(undefined)).toEqual({ closed: false, loginRequired: false });
    expect(siteSwitchesFrom(null)).toEqual({ closed: false, loginRequired: false });
    const odd = { security: { is_close: 'true', login_required: 1 } } as unknown as Parameters<
      typeof siteSwitchesFrom
    >[0];
    expect(siteSwitchesFrom(odd)).toEqual({ closed: false, loginRequired: false });
  });
});

describe('isAlwaysOpen', () => {
  it('keeps login, password reset and the OAuth callback open, registration only while the site is open', () => {
    expect([...ALWAYS_OPEN_PAGES].sort()).toEqual(['/auth/forgot', '/auth/login', '/oauth/callback']);
    for (const page of ALWAYS_OPEN_PAGES) expect(isAlwaysOpen(page, { closed: true })).toBe(true);
    expect(isAlwaysOpen('/auth/register')).toBe(true);
    expect(isAlwaysOpen('/auth/register', { loginRequired: true })).toBe(true);
    expect(isAlwaysOpen('/auth/register', { closed: true })).toBe(false);
    expect(isAlwaysOpen('/', {})).toBe(false);
  });
});

describe('safeRedirect', () => {
  const hostile: unknown[] = [
    '',
    '//evil.com',
    '///evil.com',
    '//evil.com/member',
    '/\\evil.com',
    '\\\\evil.com',
    '\\/evil.com',
    '/%2F%2Fevil.com',
    '/%2f%2fevil.com',
    '/%5Cevil.com',
    '/%5c%5cevil.com',
    '/%252F%252Fevil.com',
    '/%25252F%25252Fevil.com',
    'https://evil.com',
    'HTTPS://evil.com/member',
    'http:evil.com',
    'http://evil.corp/redirect?rd=foo.bar',
    'https://evil.corp:3838/redirect',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.cookie)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'foo.bar/redirect',
    'evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/\v/evil.com',
    '/\r\\evil.com',
    '/\t/\t\\evil.com',
    '\t//evil.com',
    '/ /evil.com',
    '/ \\evil.com',
    '/\u3000/evil.com',
    '/%09/evil.com',
    '/%0A/evil.com',
    '/%20/evil.com',
    '/./\\evil.com',
    '/./../../\\evil.com',
    '/../..//evil.com',
    '/%2e%2e/%2e%2e//evil.com',
    '/..',
    '/%E4%B8',
    '/auth/login?redirect=%2Fmember',
    '/AUTH/login',
    `/${'a'.repeat(2048)}`,
    undefined,
    null,
    42,
    ['/member'],
    { toString: () => '/member' },
  ];

  it(`refuses ${hostile.length} hostile values with '/'`, () => {
    expect(hostile.length).toBeGreaterThanOrEqual(25);
    for (const value of hostile) expect(safeRedirect(value), JSON.stringify(value)).toBe('/');
  });

  it('returns same-origin paths unchanged, with query strings, hashes and Chinese characters', () => {
    for (const value of [
      '/',
      '/member',
      '/member/order?page=2&size=10',
      '/library?wd=中文资料',
      '/article/7/detail/about#comments',
      '/library/%E4%B8%AD%E6%96%87?wd=%E4%B8%AD',
      '/search?wd=a//b&next=//not-a-target',
      '/admin/user/list',
      '/vip/checkout?plan=1',
    ]) {
      expect(safeRedirect(value), value).toBe(value);
    }
  });
});

describe('loginLocation', () => {
  it('encodes the full path into redirect', () => {
    expect(loginLocation('/member/order?page=2')).toBe('/auth/login?redirect=%2Fmember%2Forder%3Fpage%3D2');
    expect(loginLocation('/library?wd=中文')).toBe('/auth/login?redirect=%2Flibrary%3Fwd%3D%E4%B8%AD%E6%96%87');
  });

  it('drops a redirect that is not safe or leads home', () => {
    expect(loginLocation('//evil.com')).toBe('/auth/login');
    expect(loginLocation('/')).toBe('/auth/login');
  });
});
