// Downloads through the real gateway in front of the real embedded backend: the API call
// with the member's cookie, then the signed link, whose headers (Range, Content-Disposition,
// ETag) and bytes must pass through unchanged.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsOf, insertDocument, setCredits } from '../helpers/document-fixtures';
import { startSite, type Site } from '../helpers/site';
import { FIXTURE_DIST, cookieAttributes, sameOrigin, send, type Answer } from './helpers';

let site: Site;

beforeAll(async () => {
  site = await startSite({ webDist: FIXTURE_DIST });
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

    const granted = await send(`${site.url}/api/v1/document/download?id=${doc.id}`, { headers: { cookie: reader.cookie } });
    expect(granted.status, granted.text).toBe(200);
    const { url } = granted.json<{ url: string }>();
    expect(await creditsOf(site.dataDir, reader.id)).toBe(1);

    const whole = await send(site.url + url);
    expect(whole.status).toBe(200);
    expect(crypto.createHash('md5').update(whole.body).digest('hex')).toBe(doc.hash);
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="download.pdf"; filename*=UTF-8''${encodeURIComponent('城市图书馆的一天.pdf')}`);
    expect(whole.headers['content-type']).toBe('application/pdf');
    expect(whole.headers.etag).toBe(`"${doc.hash}"`);

    const part = await send(site.url + url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${doc.bytes.length}`);
    expect(part.body.equals(doc.bytes.subarray(10, 20))).toBe(true);
  });

  it('passes the backend\'s refusal of a tampered link on', async () => {
    const reader = await registerThroughGateway('reader02');
    const doc = await insertDocument(site.dataDir, { userId: 1, price: 0 });
    const { url } = (await send(`${site.url}/api/v1/document/download?id=${doc.id}`, { headers: { cookie: reader.cookie } })).json<{ url: string }>();
    const refused = await send(site.url + url.replace(`document_id=${doc.id}`, `document_id=${doc.id + 1}`));
    expect(refused.status).toBe(400);
    expect(refused.text).toBe('下载链接已失效');
  });
});
