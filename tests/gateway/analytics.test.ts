// The site's statistics code (系统设置 → 网站统计代码, settings `system.analytics`): every page
// carries it, and the page's CSP lets exactly that code run, with the hosts it names (decision 061).
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseHtml } from '../helpers/xml';
import { CRAWLER, PERSON, send, startGateway, type Answer, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

/** Baidu Tongji's snippet, as GET /api/v1/settings gives it (the code inside its <script>). */
const BAIDU = [
  'var _hmt = _hmt || [];',
  '(function() {',
  '  var hm = document.createElement("script");',
  '  hm.src = "https://hm.baidu.com/hm.js?0123456789abcdef";',
  '  var s = document.getElementsByTagName("script")[0];',
  '  s.parentNode.insertBefore(hm, s);',
  '})();',
].join('\n');

let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  // start data read again for every page, so that a test's settings are the page's
  gw = await startGateway(backend.url, { startDataTtlMs: 0 });
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});
afterEach(() => {
  delete backend.settings.system!.analytics;
});

function directives(res: Answer): Map<string, string[]> {
  return new Map(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The page's classic scripts (not the app's modules, not data). */
function inlineScripts(html: string): string[] {
  return [...parseHtml(html).querySelectorAll('script')]
    .filter((s) => !s.hasAttribute('src') && !s.hasAttribute('type'))
    .map((s) => s.textContent ?? '');
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('statistics code (system.analytics)', () => {
  it('leaves the page and its CSP as they are without one', async () => {
    const res = await send(`${gw.url}/`, { headers: PERSON });
    expect(res.status).toBe(200);
    expect(inlineScripts(res.text)).toEqual([]);
    expect(directives(res).get('script-src')).toEqual(["'self'"]);
    expect(directives(res).get('connect-src')).toEqual(["'self'"]);
  });

  for (const [who, headers, member] of [
    ['a person', PERSON, false],
    ['a crawler', CRAWLER, false],
    ['a member', PERSON, true],
  ] as const) {
    it(`is on the page for ${who}, and the page's CSP runs it and lets it load from its host`, async () => {
      backend.settings.system!.analytics = BAIDU;
      const res = await send(`${gw.url}/`, {
        headers: member ? { ...headers, cookie: `token=${backend.memberToken}` } : headers,
      });
      expect(res.status).toBe(200);
      const scripts = inlineScripts(res.text);
      expect(scripts).toEqual([BAIDU]);
      const csp = directives(res);
      expect(csp.get('script-src')).toEqual(["'self'", sha256(scripts[0]!), 'hm.baidu.com']);
      expect(csp.get('connect-src')).toEqual(["'self'", 'hm.baidu.com']);
      // the rest of the policy stays as strict
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
    });
  }

  it('stays one script that cannot end early, whatever its strings hold', async () => {
    backend.settings.system!.analytics = 'var s = "</script><script>alert(1)</script><!--";';
    const res = await send(`${gw.url}/library`, { headers: PERSON });
    const scripts = inlineScripts(res.text);
    expect(scripts).toEqual(['var s = "<\\/script><script>alert(1)<\\/script><\\!--";']);
    expect(directives(res).get('script-src')).toEqual(["'self'", sha256(scripts[0]!)]);
  });

  it('is not on the pages whose address may hold a reset link or a sign-in code, nor in their CSP', async () => {
    backend.settings.system!.analytics = BAIDU;
    for (const path of [
      '/auth/forgot?email=amy%40example.com&token=eyJhbGciOiJIUzI1NiJ9.e30.c2ln',
      '/AUTH/Forgot/?token=eyJhbGciOiJIUzI1NiJ9.e30.c2ln',
      '/oauth/callback?code=one-time-code&state=abc',
    ]) {
      // (the second is a 404 page, whose app may still show the reset form in the browser)
      const res = await send(`${gw.url}${path}`, { headers: PERSON });
      expect(inlineScripts(res.text), path).toEqual([]);
      expect(directives(res).get('script-src'), path).toEqual(["'self'"]);
    }
    // The other sign-in pages count as any page.
    expect(inlineScripts((await send(`${gw.url}/auth/login`, { headers: PERSON })).text)).toEqual([BAIDU]);
  });

  it('is never part of other answers or their CSP', async () => {
    backend.settings.system!.analytics = BAIDU;
    const api = await send(`${gw.url}/api/v1/settings`);
    expect(directives(api).get('script-src')).toEqual(["'self'"]);
  });
});
