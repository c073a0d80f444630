import { describe, expect, it } from 'vitest';
import { services } from '../../backend/app';
import { encode, type Fields, type MessageType } from '../../backend/wire/message';
import { api, login, useBackend } from '../helpers/backend';

// No input may produce a 500: every RPC of the route table gets odd but well-formed inputs
// (as the admin, so that the handlers really run) and must answer with a 2xx or a 4xx.

// SMS on (log-only provider), so that the mobile-number flows run instead of answering 503.
const backend = useBackend({ env: { CONFIG_SMS_ENABLE: 'true' } });

const ODD_STRINGS = [
  "' OR 1=1 --",
  '%',
  '_',
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '😀'.repeat(300),
  '   ',
  'a,b,,c',
];
const ODD_NUMBERS = [0, -1, 2 ** 31 - 1, Number.MAX_SAFE_INTEGER, 1];

function oddValue(spec: unknown, variant: number): unknown {
  if (Array.isArray(spec)) return variant % 2 ? [] : [oddMessage(spec[0] as MessageType<Fields>, variant)];
  if (typeof spec === 'object' && spec && 'fields' in spec) return oddMessage(spec as MessageType<Fields>, variant);
  if (typeof spec === 'object' && spec && 'enum' in spec) return variant % 2;
  const s = spec as string;
  const base = s.replace('[]', '');
  const one =
    base === 'string'
      ? ODD_STRINGS[variant % ODD_STRINGS.length]
      : base === 'bool'
        ? variant % 2 === 0
        : base === 'time'
          ? variant % 2
            ? '1970-01-01T00:00:00Z'
            : '9999-12-31T23:59:59Z'
          : base === 'float'
            ? -1.5
            : ODD_NUMBERS[variant % ODD_NUMBERS.length];
  return s.endsWith('[]') ? [one, one] : one;
}

function oddMessage(type: MessageType<Fields>, variant: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(type.fields).map(([name, spec], i) => [name, oddValue(spec, variant + i)]));
}

const rpcs = services
  .flatMap((s) => s.rpcs.map((r) => ({ key: `${s.name}.${r.name}`, ...r })))
  // Deleting the admin's own data or logging out would only disturb the other cases.
  .filter((r) => !['UserAPI.Logout'].includes(r.key));

describe('robustness', () => {
  it.each(rpcs.map((r) => [r.key, r] as const))('%s never answers 5xx to odd input', async (_key, rpc) => {
    const type = rpc.spec.request as MessageType<Fields> | undefined;
    for (let variant = 0; variant < 6; variant += 1) {
      const input = type ? oddMessage(type, variant) : {};
      const isQuery = rpc.method === 'GET' || rpc.method === 'DELETE';
      const query = Object.fromEntries(
        Object.entries(input)
          .filter(([, v]) => typeof v !== 'object' || Array.isArray(v))
          .map(([k, v]) => [k, Array.isArray(v) ? v.filter((x) => typeof x !== 'object').map(String) : String(v)]),
      );
      const res = await api(
        backend.url,
        rpc.method,
        rpc.url,
        isQuery ? { token: backend.adminToken, query } : { token: backend.adminToken, body: input },
      );
      expect(res.status, `${rpc.key} #${variant}: ${res.text}`).toBeLessThan(500);
      if (res.status === 200 && rpc.spec.response) expect(() => encode(rpc.spec.response!, res.body)).not.toThrow();
    }
  });

  it('survives prototype keys and deep nesting', async () => {
    for (const rawBody of [
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{}}}',
      '['.repeat(5000) + ']'.repeat(5000),
      '{"config":[{"__proto__":1}]}',
    ]) {
      const res = await api(backend.url, 'PUT', '/api/v1/config', { token: backend.adminToken, rawBody });
      expect(res.status).toBe(400);
    }
  });

  it('refuses a body nested deeper than any message before parsing it', async () => {
    // JSON.parse took seconds over 4 MiB of such nesting, the event loop of the whole process with it.
    for (const rawBody of [
      '['.repeat(1_000_000) + ']'.repeat(1_000_000),
      `{"config":${'['.repeat(33)}${']'.repeat(33)}}`,
      '{"a":'.repeat(100) + '1' + '}'.repeat(100),
    ]) {
      const res = await api(backend.url, 'PUT', '/api/v1/config', { token: backend.adminToken, rawBody });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('请求体的嵌套层级过深（最多 32 层）');
    }
    // Brackets inside strings are text, and a body of usual depth is read as before.
    const text = await api(backend.url, 'POST', '/api/v1/feedback', {
      body: { content: `[[[{{{${'['.repeat(100)} 页面打不开"` },
    });
    expect(text.status, text.text).toBe(200);
  });

  it('refuses an id list longer than a query can bind, before any query runs', async () => {
    // 70 000 ids: past SQLite's 32 766 variables and PostgreSQL's 65 535 parameters.
    const ids = Array.from({ length: 70_000 }, (_, i) => i + 1);
    for (const [path, body] of [
      ['/api/v1/document/check', { id: ids }],
      ['/api/v1/article/check', { article_id: ids }],
      ['/api/v1/message/read', { id: ids }],
    ] as const) {
      const res = await api(backend.url, 'PUT', path, { token: backend.adminToken, body });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.body.message).toMatch(/^参数 (id|article_id) 一次最多 1000 项，收到 70000 项$/);
    }
    const inQuery = await api(backend.url, 'GET', '/api/v1/user/list', {
      token: backend.adminToken,
      query: { id: ids.slice(0, 1001) },
    });
    expect(inQuery.status).toBe(400);
    // A thousand is still a list.
    const thousand = await api(backend.url, 'PUT', '/api/v1/message/read', {
      token: backend.adminToken,
      body: { id: ids.slice(0, 1000) },
    });
    expect(thousand.status, thousand.text).toBe(200);
  });

  it('refuses text that is not text (an unpaired surrogate, bytes that are not UTF-8) and writes nothing', async () => {
    const titles = async () =>
      (
        await api(backend.url, 'GET', '/api/v1/category/list', { token: backend.adminToken, query: { size: 0 } })
      ).body.category?.map((c: { title: string }) => c.title) ?? [];
    const before = await titles();
    // `'📚'.slice(0, 1)`: a string cut inside a character, which JSON.stringify writes as "\ud83d".
    const cut = await api(backend.url, 'POST', '/api/v1/category', {
      token: backend.adminToken,
      body: { title: `资料${'📚'.slice(0, 1)}`, enable: true },
    });
    expect(cut.status, cut.text).toBe(400);
    expect(cut.body.message).toBe('参数 title 含有无效字符（不完整的 Unicode 字符）');
    const bytes = await fetch(`${backend.url}/api/v1/category`, {
      method: 'POST',
      headers: { authorization: `Bearer ${backend.adminToken}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"title":"资料'), Buffer.from([0xc3, 0x28]), Buffer.from('","enable":true}')]),
    });
    expect(bytes.status).toBe(400);
    expect(await bytes.json()).toMatchObject({ code: 3, message: '请求体不是有效的 UTF-8 文本' });
    expect(await titles()).toEqual(before);
    // A whole character outside the BMP is text.
    const whole = await api(backend.url, 'POST', '/api/v1/category', {
      token: backend.adminToken,
      body: { title: '资料📚', enable: true },
    });
    expect(whole.status, whole.text).toBe(200);
    expect(await titles()).toContain('资料📚');
  });

  it('the seeded admin can still log in afterwards', async () => {
    expect(await login(backend.url, 'admin', backend.adminPassword)).toBeTruthy();
  });
});
