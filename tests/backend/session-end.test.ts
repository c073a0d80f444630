import { SignJWT, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { api, login, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { SESSION_END_HEADER } from '../../shared/session-end';
import { withClockOff } from '../helpers/clock';

// docs/decisions/079: a token the caller sent in vain answers MOREDOC's one 401 (same status, code
// and message as before), and its answer says why in a header MOREDOC's clients ignore.

const backend = useBackend();

const NOT_LOGGED_IN = {
  error: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
  code: 16,
  message: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
};

const groups = (token?: string) => api(backend.url, 'GET', '/api/v1/user/group', token ? { token } : {});

const jwtSecret = async () =>
  new TextEncoder().encode(
    await withDatabase(backend.dataDir, async (db) =>
      String((await db.selectFrom('secret').select('value').where('name', '=', 'jwt').executeTakeFirstOrThrow()).value),
    ),
  );

describe('the answer to a token that opens no session', () => {
  it('says expired for a token of this site whose time ran out', async () => {
    const member = await registerMember(backend.url);
    const claims = decodeJwt(member.token);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(await jwtSecret());
    const res = await groups(expired);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
    expect(res.headers.get(SESSION_END_HEADER)).toBe('expired');
  });

  it('says password-changed for a session a password change elsewhere ended', async () => {
    const member = await registerMember(backend.url);
    const elsewhere = await login(backend.url, member.username, member.password);
    const changed = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: member.token,
      body: { old_password: member.password, new_password: 'changed-password-1' },
    });
    expect(changed.status, changed.text).toBe(200);
    const res = await groups(elsewhere);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
    expect(res.headers.get(SESSION_END_HEADER)).toBe('password-changed');
    // The session that changed it goes on, and says nothing.
    const kept = await groups(member.token);
    expect(kept.status).toBe(200);
    expect(kept.headers.get(SESSION_END_HEADER)).toBeNull();
  });

  it('says account-removed for the session of an account an admin deleted', async () => {
    const member = await registerMember(backend.url);
    const removed = await api(backend.url, 'DELETE', '/api/v1/user', {
      token: backend.adminToken,
      query: { id: member.user.id, password: backend.adminPassword },
    });
    expect(removed.status, removed.text).toBe(200);
    const res = await groups(member.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
    expect(res.headers.get(SESSION_END_HEADER)).toBe('account-removed');
  });

  it('says logged-out for a token signed out', async () => {
    const member = await registerMember(backend.url);
    expect((await api(backend.url, 'DELETE', '/api/v1/user/logout', { token: member.token })).status).toBe(200);
    const res = await groups(member.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
    expect(res.headers.get(SESSION_END_HEADER)).toBe('logged-out');
  });

  it("says it on a public call's answer too: the member's own account, which answers a caller without a session 400", async () => {
    const member = await registerMember(backend.url);
    await api(backend.url, 'DELETE', '/api/v1/user/logout', { token: member.token });
    const res = await api(backend.url, 'GET', '/api/v1/user', { token: member.token });
    expect(res.status).toBe(400);
    expect(res.headers.get(SESSION_END_HEADER)).toBe('logged-out');
  });

  it("says it on an upload's 401 too, in the upload error shape", async () => {
    const member = await registerMember(backend.url);
    await api(backend.url, 'DELETE', '/api/v1/user/logout', { token: member.token });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('GIF89a')], { type: 'image/gif' }), 'a.gif');
    const res = await fetch(`${backend.url}/api/v1/upload/avatar`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: NOT_LOGGED_IN.message, error: NOT_LOGGED_IN.message });
    expect(res.headers.get(SESSION_END_HEADER)).toBe('logged-out');
  });

  it('says nothing without a token, or for one this site did not sign', async () => {
    const member = await registerMember(backend.url);
    const forged = await new SignJWT({ ...decodeJwt(member.token) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('another-secret'));
    for (const res of [await groups(), await groups(forged), await groups('not-a-jwt')]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NOT_LOGGED_IN);
      expect(res.headers.get(SESSION_END_HEADER)).toBeNull();
    }
  });
});

describe('sessions across machines whose clocks are off (tokens by the database clock, checked within 5 minutes)', () => {
  const MINUTE_MS = 60_000;

  it('a sign-in through a machine 10 minutes ahead opens a session on the machine on time', async () => {
    const member = await registerMember(backend.url);
    const token = await withClockOff(10 * MINUTE_MS, () => login(backend.url, member.username, member.password));
    const res = await groups(token);
    expect(res.status, res.text).toBe(200);
  });

  it('a machine a minute behind the one that signed in keeps the session; 10 minutes behind, past the tolerance, not', async () => {
    const member = await registerMember(backend.url);
    const behindByAMinute = await login(backend.url, member.username, member.password);
    const res = await withClockOff(-MINUTE_MS, () => groups(behindByAMinute));
    expect(res.status, res.text).toBe(200);
    const behindByTen = await login(backend.url, member.username, member.password);
    const refused = await withClockOff(-10 * MINUTE_MS, () => groups(behindByTen));
    expect(refused.status).toBe(401);
  });

  it('a password change through a machine 10 minutes ahead ends the sessions before it, not a sign-in after it', async () => {
    const member = await registerMember(backend.url);
    const before = await login(backend.url, member.username, member.password);
    const changed = await withClockOff(10 * MINUTE_MS, () =>
      api(backend.url, 'PUT', '/api/v1/user/password', {
        token: member.token,
        body: { old_password: member.password, new_password: 'changed-password-1' },
      }),
    );
    expect(changed.status, changed.text).toBe(200);
    expect((await groups(before)).headers.get(SESSION_END_HEADER)).toBe('password-changed');
    const after = await login(backend.url, member.username, 'changed-password-1');
    const res = await groups(after);
    expect(res.status, res.text).toBe(200);
  });
});
