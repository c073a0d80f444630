// Downloads through the real gateway in front of the real embedded backend: the API call
// with the member's cookie, sent as the SPA's fetch sends it (same origin), then the signed
// link, whose headers (Range, Content-Disposition, ETag) and bytes must pass through
// unchanged; and the whole way of a Chinese PDF through the gateway: upload, conversion,
// search by a word of its body, download.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsOf, insertDocument, setCredits } from '../helpers/document-fixtures';
import { fixture } from '../helpers/documents';
import { startSite, type Site } from '../helpers/site';
import { TEST_ADMIN_PASSWORD } from '../helpers/test-env';
import { FIXTURE_DIST, cookieAttributes, sameOrigin, send, type Answer } from './helpers';
import { recordedConversions } from '../helpers/recorded-conversions';

let site: Site;

beforeAll(async () => {
  site = await startSite({ webDist: FIXTURE_DIST, build: { converter: recordedConversions } });
});
afterAll(async () => {
  await site.close();
});

function tokenCookieOf(res: Answer): string {
  return `token=${cookieAttributes(res.setCookies.find((c) => c.startsWith('token='))!).get('$value')}`;
}

async function registerThroughGateway(username: string): Promise<{ cookie: string; id: number }> {
  const res = await send(`${site.url}/api/v1/user/register`, {
    method: 'POST',
    headers: sameOrigin(site.url, { 'content-type': 'application/json' }),
    body: JSON.stringify({ username, password: 'member-password' }),
  });
  expect(res.status, res.text).toBe(200);
  return { cookie: tokenCookieOf(res), id: res.json<{ user: { id: number } }>().user.id };
}

describe('downloads through the gateway', () => {
  it('charges the member, and the link serves the original with its Chinese name and byte ranges', async () => {
    const uploader = await registerThroughGateway('uploader01');
    const reader = await registerThroughGateway('reader01');
    const doc = await insertDocument(site.dataDir, { userId: uploader.id, title: '城市图书馆的一天', price: 2 });
    await setCredits(site.dataDir, reader.id, 3);

    const granted = await send(`${site.url}/api/v1/document/download?id=${doc.id}`, {
      headers: sameOrigin(site.url, { cookie: reader.cookie }),
    });
    expect(granted.status, granted.text).toBe(200);
    const { url } = granted.json<{ url: string }>();
    expect(await creditsOf(site.dataDir, reader.id)).toBe(1);

    const whole = await send(site.url + url);
    expect(whole.status).toBe(200);
    expect(crypto.createHash('md5').update(whole.body).digest('hex')).toBe(doc.hash);
    expect(whole.headers['content-disposition']).toBe(
      `attachment; filename="download.pdf"; filename*=UTF-8''${encodeURIComponent('城市图书馆的一天.pdf')}`,
    );
    expect(whole.headers['content-type']).toBe('application/pdf');
    expect(whole.headers.etag).toBe(`"${doc.hash}"`);

    const part = await send(site.url + url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${doc.bytes.length}`);
    expect(part.body.equals(doc.bytes.subarray(10, 20))).toBe(true);
  });

  it("passes the backend's refusal of a tampered link on", async () => {
    const reader = await registerThroughGateway('reader02');
    const doc = await insertDocument(site.dataDir, { userId: 1, price: 0 });
    const { url } = (
      await send(`${site.url}/api/v1/document/download?id=${doc.id}`, {
        headers: sameOrigin(site.url, { cookie: reader.cookie }),
      })
    ).json<{ url: string }>();
    const refused = await send(site.url + url.replace(`document_id=${doc.id}`, `document_id=${doc.id + 1}`));
    expect(refused.status).toBe(400);
    expect(refused.text).toBe('下载链接已失效');
  });
});

describe('a Chinese PDF through the gateway', () => {
  it('is uploaded, converted, found by a word of its body and downloaded in ranges', async () => {
    const login = await send(`${site.url}/api/v1/user/login`, {
      method: 'POST',
      headers: sameOrigin(site.url, { 'content-type': 'application/json' }),
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    const admin = tokenCookieOf(login);
    const original = fs.readFileSync(fixture('chinese.pdf'));
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(original)]), '城市图书馆.pdf');
    const uploaded = await fetch(`${site.url}/api/v1/upload/document`, {
      method: 'POST',
      body: form,
      headers: sameOrigin(site.url, { cookie: admin }),
    });
    expect(uploaded.status).toBe(200);
    const attachmentId = ((await uploaded.json()) as { data: { id: number } }).data.id;
    const created = await send(`${site.url}/api/v1/document`, {
      method: 'POST',
      headers: sameOrigin(site.url, { 'content-type': 'application/json', cookie: admin }),
      body: JSON.stringify({ document: [{ title: '城市图书馆的一天', attachment_id: attachmentId, price: 1 }] }),
    });
    expect(created.status, created.text).toBe(200);

    const mine = await send(`${site.url}/api/v1/document/list?user_id=1&size=10`, { headers: { cookie: admin } });
    const id = mine
      .json<{ document: { id: number; title: string }[] }>()
      .document.find((d) => d.title === '城市图书馆的一天')!.id;
    let status = 0;
    for (let waited = 0; status !== 2 && waited < 120_000; waited += 200) {
      const doc = await send(`${site.url}/api/v1/document?id=${id}`, { headers: { cookie: admin } });
      status = doc.json<{ status?: number }>().status ?? 0;
      if (status === 6)
        await send(`${site.url}/api/v1/document/check`, {
          method: 'PUT',
          headers: sameOrigin(site.url, { 'content-type': 'application/json', cookie: admin }),
          body: JSON.stringify({ id: [id], status: 2 }),
        });
      if (status !== 2) await sleep(200);
    }
    expect(status).toBe(2);

    const found = await send(`${site.url}/api/v1/document/search?wd=${encodeURIComponent('麒麟')}`);
    expect(found.status).toBe(200);
    const hits = found.json<{ document: { id: number; snippet: string }[] }>().document;
    expect(hits.map((h) => h.id)).toEqual([id]);
    expect(hits[0]!.snippet).toContain('<em>麒麟</em>');

    const reader = await registerThroughGateway('reader03');
    await setCredits(site.dataDir, reader.id, 1);
    const granted = await send(`${site.url}/api/v1/document/download?id=${id}`, {
      headers: sameOrigin(site.url, { cookie: reader.cookie }),
    });
    expect(granted.status, granted.text).toBe(200);
    expect(await creditsOf(site.dataDir, reader.id)).toBe(0);
    const { url } = granted.json<{ url: string }>();
    const head = await send(site.url + url, { headers: { range: 'bytes=0-1023' } });
    const rest = await send(site.url + url, { headers: { range: 'bytes=1024-' } });
    expect([head.status, rest.status]).toEqual([206, 206]);
    const joined = Buffer.concat([head.body, rest.body]);
    expect(crypto.createHash('md5').update(joined).digest('hex')).toBe(
      crypto.createHash('md5').update(original).digest('hex'),
    );
    expect(rest.headers['content-disposition']).toBe(
      `attachment; filename="download.pdf"; filename*=UTF-8''${encodeURIComponent('城市图书馆的一天.pdf')}`,
    );
  }, 150_000);
});
