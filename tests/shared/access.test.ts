import { describe, expect, it } from 'vitest';
import {
  ALWAYS_ALLOWED_ADMIN_PAGES,
  decideAccess,
  loginLocation,
  normalizePath,
  pathGuard,
  safeRedirect,
  type Session,
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
      '/admin%2Fuser', '/admin%2fuser', '/%5Cadmin', '/\\admin', '/admin\\user', '/adm\tin', '/admin%0a',
      '/admin%00', '/%E4%B8', '/100%', '/%2561dmin', 'admin', '', 'http://evil.com/admin', '/a\u0085b',
    ]) {
      expect(normalizePath(raw), JSON.stringify(raw)).toBeNull();
    }
  });
});

describe('pathGuard', () => {
  it('needs a token for /member… and /vip/checkout, a token and the page for /admin…', () => {
    expect(pathGuard('/member')).toBe('token');
    expect(pathGuard('/member/order')).toBe('token');
    expect(pathGuard('/vip/checkout')).toBe('token');
    expect(pathGuard('/admin')).toBe('admin');
    expect(pathGuard('/admin/config/system')).toBe('admin');
    expect(pathGuard('/ADMIN/user/list')).toBe('admin');
    expect(pathGuard('/vip')).toBe('public');
    expect(pathGuard('/oauth/callback')).toBe('public');
    expect(pathGuard('/library/1/2')).toBe('public');
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
    expect(decision).toEqual({ kind: 'login', location: '/auth/login?redirect=%2Fmember%2F%25E4%25B8%25AD%3Fwd%3D%25E6%2596%2587' });
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
    expect(decideAccess('/admin/banner', '', { loggedIn: true, allowPages: ['/admin/banner/'] })).toEqual({ kind: 'allow' });
  });

  it('sends a logged-in user home from admin pages outside allowPages', () => {
    expect(decideAccess('/admin/user/group', '', userAdmin)).toEqual({ kind: 'home', location: '/' });
    expect(decideAccess('/admin/config/system', '', member)).toEqual({ kind: 'home', location: '/' });
    expect(decideAccess('/administrator', '', member)).toEqual({ kind: 'home', location: '/' });
  });

  it('guards the paths that normalise to a guarded path', () => {
    for (const path of ['//admin/config/system', '/x/../admin/config/system/', '/%61dmin/config/system', '/admin;x/config/system', '/ADMIN/config/system', '/./admin/./config/system']) {
      expect(decideAccess(path, '', member), path).toEqual({ kind: 'home', location: '/' });
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
