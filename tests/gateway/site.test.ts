// End to end over HTTP: the gateway in front of the real embedded backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartData } from '../../shared/types/start-data';
import { startSite, type Site } from '../helpers/site';
import { allKeys, cookieAttributes, FIXTURE_DIST, sameOrigin, send, type Answer } from './helpers';

const HTML = { accept: 'text/html' };
let site: Site;

beforeAll(async () => {
  site = await startSite({ webDist: FIXTURE_DIST });
});
afterAll(async () => {
  await site.close();
});

function tokenCookieOf(res: Answer): string {
  const cookie = cookieAttributes(res.setCookies.find((c) => c.startsWith('token='))!);
  return `token=${cookie.get('$value')}`;
}

function startDataOf(html: string): StartData {
  return JSON.parse(/id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as StartData;
}

async function loginAs(username: string, password: string): Promise<string> {
  const res = await send(`${site.url}/api/v1/user/login`, {
    method: 'POST',
    headers: sameOrigin(site.url, { 'content-type': 'application/json' }),
    body: JSON.stringify({ username, password }),
  });
  expect(res.status, res.text).toBe(200);
  expect(allKeys(res.json())).not.toContain('token');
  return tokenCookieOf(res);
}

describe('the site over HTTP (gateway + embedded backend)', () => {
  it('register → cookie → current user → /member → logout → /member redirects to login', async () => {
    const register = await send(`${site.url}/api/v1/user/register`, {
      method: 'POST',
      headers: sameOrigin(site.url, { 'content-type': 'application/json' }),
      body: JSON.stringify({ username: 'reader01', password: 'reader-password' }),
    });
    expect(register.status, register.text).toBe(200);
    expect(allKeys(register.json())).not.toContain('token');
    expect(register.json<{ user: { username: string } }>().user.username).toBe('reader01');
    const cookie = tokenCookieOf(register);
    const attributes = cookieAttributes(register.setCookies[0]!);
    expect(attributes.has('httponly')).toBe(true);
    expect(Number(attributes.get('max-age'))).toBeGreaterThan(0);

    const me = await send(`${site.url}/api/v1/user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.json<{ username: string }>().username).toBe('reader01');

    const member = await send(`${site.url}/member`, { headers: { ...HTML, cookie } });
    expect(member.status).toBe(200);
    expect(member.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(startDataOf(member.text).user?.username).toBe('reader01');

    const logout = await send(`${site.url}/api/v1/user/logout`, {
      method: 'DELETE',
      headers: sameOrigin(site.url, { cookie }),
    });
    expect(logout.status).toBe(200);
    expect(cookieAttributes(logout.setCookies[0]!).get('max-age')).toBe('0');

    // the browser dropped the cookie
    const after = await send(`${site.url}/member/order?page=2`, { headers: HTML });
    expect(after.status).toBe(302);
    expect(after.headers.location).toBe('/auth/login?redirect=%2Fmember%2Forder%3Fpage%3D2');
    // and the old token is refused by the backend: cookie cleared, login again
    const replay = await send(`${site.url}/member`, { headers: { ...HTML, cookie } });
    expect(replay.status).toBe(302);
    expect(replay.headers.location).toBe('/auth/login?redirect=%2Fmember');
    expect(cookieAttributes(replay.setCookies[0]!).get('max-age')).toBe('0');
  });

  it('a member is sent home from an admin page', async () => {
    await send(`${site.url}/api/v1/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'reader02', password: 'reader-password' }),
    });
    const cookie = await loginAs('reader02', 'reader-password');
    const res = await send(`${site.url}/admin/user/list`, { headers: { ...HTML, cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/?denied=%2Fadmin%2Fuser%2Flist');
    expect((await send(`${site.url}/admin`, { headers: { ...HTML, cookie } })).status).toBe(200);
  });

  it('the admin may open /admin/user/list', async () => {
    const cookie = await loginAs('admin', site.adminPassword);
    const res = await send(`${site.url}/admin/user/list`, { headers: { ...HTML, cookie } });
    expect(res.status).toBe(200);
  });

  it('the admin may open /admin/config/system', async () => {
    const cookie = await loginAs('admin', site.adminPassword);
    const res = await send(`${site.url}/admin/config/system`, { headers: { ...HTML, cookie } });
    expect(res.status, String(res.headers.location)).toBe(200);
  });

  it('inlines the start data from the backend, with user and permissions for the admin', async () => {
    const home = await send(`${site.url}/`, { headers: HTML });
    const anonymous = startDataOf(home.text);
    expect(anonymous.settings.system?.sitename).toBeTruthy();
    expect(home.text).toContain(
      `<title>${anonymous.settings.system?.title || anonymous.settings.system?.sitename}</title>`,
    );
    expect(anonymous.user).toBeUndefined();
    const cookie = await loginAs('admin', site.adminPassword);
    const data = startDataOf((await send(`${site.url}/admin`, { headers: { ...HTML, cookie } })).text);
    expect(data.user?.username).toBe('admin');
    expect(data.permissions?.length).toBeGreaterThan(0);
  });

  it('shows a new site title right after the admin changes it through the gateway', async () => {
    const cookie = await loginAs('admin', site.adminPassword);
    await send(`${site.url}/`, { headers: HTML }); // the public part is now cached
    const list = await send(`${site.url}/api/v1/config/list?category=system`, { headers: { cookie } });
    const items = list.json<{ config: { id: number; name: string; category: string; value?: string }[] }>().config;
    const title = items.find((item) => item.name === 'title')!;
    const change = await send(`${site.url}/api/v1/config`, {
      method: 'PUT',
      headers: sameOrigin(site.url, { cookie, 'content-type': 'application/json' }),
      body: JSON.stringify({ config: [{ ...title, value: '新标题 <测试>' }] }),
    });
    expect(change.status, change.text).toBe(200);
    const page = await send(`${site.url}/`, { headers: HTML });
    expect(page.text).toContain('<title>新标题 &#60;测试&#62;</title>');
    expect(startDataOf(page.text).settings.system?.title).toBe('新标题 <测试>');
  });

  it('drops an industry from the start data right after the admin disables it through the gateway', async () => {
    const cookie = await loginAs('admin', site.adminPassword);
    const before = startDataOf((await send(`${site.url}/`, { headers: HTML })).text).settings.language ?? [];
    expect(before.length).toBeGreaterThan(1);
    const disabled = before[0]!;
    const change = await send(`${site.url}/api/v1/language/status`, {
      method: 'PUT',
      headers: sameOrigin(site.url, { cookie, 'content-type': 'application/json' }),
      body: JSON.stringify({ id: [disabled.id], enable: false }),
    });
    expect(change.status, change.text).toBe(200);
    const after = startDataOf((await send(`${site.url}/`, { headers: HTML })).text).settings.language ?? [];
    expect(after.map((l) => l.id)).not.toContain(disabled.id);
    expect(after).toHaveLength(before.length - 1);
  });
});
