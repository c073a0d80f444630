import crypto from 'node:crypto';
import fs from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, useBackend, withDatabase } from '../helpers/backend';

// Image uploads, the static /uploads/* route and /favicon.ico.

const backend = useBackend({ member: true });

/** A PNG header with the given size, padded to `bytes` (enough for our checks). */
function png(width: number, height: number, bytes = 64, seed = 0): Buffer {
  const buf = Buffer.alloc(Math.max(bytes, 33));
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf, 0);
  buf.writeUInt32BE(13, 8);
  buf.write('IHDR', 12, 'latin1');
  buf.writeUInt32BE(width, 16);
  buf.writeUInt32BE(height, 20);
  buf[24] = 8;
  buf[25] = 2;
  buf[32] = seed;
  return buf;
}
const ico = () => Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

async function upload(
  kind: string,
  file: Buffer,
  opts: { token?: string; name?: string; field?: string; authorization?: string } = {},
) {
  const form = new FormData();
  form.append(opts.field ?? 'file', new Blob([new Uint8Array(file)]), opts.name ?? 'picture.png');
  const headers: Record<string, string> = {};
  if (opts.authorization) headers.authorization = opts.authorization;
  else if (opts.token) headers.authorization = `bearer ${opts.token}`;
  const res = await fetch(`${backend.url}/api/v1/upload/${kind}`, { method: 'POST', body: form, headers });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.json() };
}

describe('POST /api/v1/upload/avatar', () => {
  it('stores the image under its MD5, records it and sets the avatar', async () => {
    const file = png(120, 80, 200);
    const md5 = crypto.createHash('md5').update(file).digest('hex');
    const res = await upload('avatar', file, { token: backend.member.token, name: 'Me.PNG' });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json; charset=utf-8');
    const expectedPath = `/uploads/${md5.slice(0, 5).split('').join('/')}/${md5}.png`;
    expect(res.body).toMatchObject({ code: 200, message: '上传成功' });
    expect(res.body.data).toMatchObject({
      id: expect.any(Number),
      hash: md5,
      user_id: backend.member.user.id,
      type_id: backend.member.user.id,
      type: 1,
      enable: true,
      path: expectedPath,
      name: 'Me.PNG',
      size: 200,
      width: 120,
      height: 80,
      ext: '.png',
      ip: '127.0.0.1',
    });
    const me = await api(backend.url, 'GET', '/api/v1/user', { token: backend.member.token });
    expect(me.body.avatar).toBe(expectedPath);
    const served = await fetch(backend.url + expectedPath);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
  });

  it('keeps the name the browser sent: its %22, %0D and %0A escapes read back as the quote and line breaks (spaces)', async () => {
    // FormData (Node's, as the browsers') writes `"`, CR and LF in a file name as %22, %0D, %0A.
    const res = await upload('avatar', png(40, 40, 64, 7), {
      token: backend.member.token,
      name: '我的"头像"\r\n第二行.png',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('我的"头像" 第二行.png');
  });

  it('needs a login (401 in the upload error shape)', async () => {
    const res = await upload('avatar', png(1, 1));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 401,
      message: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
      error: '您未登录或您的登录已过期，请重新登录或刷新页面重试',
    });
    const badScheme = await upload('avatar', png(1, 1), { authorization: `Token ${backend.member.token} extra` });
    expect(badScheme.status).toBe(401);
  });
});

describe('admin image uploads', () => {
  it.each([
    ['banner', 5, '上传轮播图'],
    ['config', 7, '上传配置图片文件'],
    ['category', 6, '上传文档分类封面'],
  ])('%s needs its permission and stores attachment type %i', async (kind, type, title) => {
    const denied = await upload(kind, png(2, 2), { token: backend.member.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      code: 403,
      message: `您没有权限访问【${title}】`,
      error: `您没有权限访问【${title}】`,
    });
    const ok = await upload(kind, png(2, 2, 64, type), { token: backend.adminToken });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ type, user_id: 1 });
    expect(ok.body.data.type_id).toBeUndefined();
  });

  it('stores identical content once (content addressing)', async () => {
    const file = png(5, 5, 100, 42);
    const a = await upload('banner', file, { token: backend.adminToken, name: 'a.png' });
    const b = await upload('banner', file, { token: backend.adminToken, name: 'b.png' });
    expect(a.body.data.path).toBe(b.body.data.path);
    expect(a.body.data.id).not.toBe(b.body.data.id);
  });
});

describe('upload validation', () => {
  const NOT_IMAGE = '请上传图片格式文件，支持.jpg、.jpeg、.png、.gif、.webp、.bmp和.ico格式图片';

  it.each([
    ['an SVG', png(1, 1), 'x.svg'],
    ['a file without extension', png(1, 1), 'picture'],
  ])('refuses %s', async (_what, file, name) => {
    const res = await upload('avatar', file, { token: backend.member.token, name });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(NOT_IMAGE);
  });

  it('refuses a file named as an image whose content is none, saying so rather than listing the formats', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await upload('avatar', html, { token: backend.member.token, name: 'photo.png' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('无法识别图片内容，文件可能已损坏或并非图片，请换一张图片');
  });

  it('refuses empty files, other field names and non-multipart bodies', async () => {
    expect((await upload('avatar', Buffer.alloc(0), { token: backend.member.token })).body.message).toBe('文件为空');
    expect((await upload('avatar', png(1, 1), { token: backend.member.token, field: 'image' })).body.message).toBe(
      '请上传文件（字段 file）',
    );
    const json = await api(backend.url, 'POST', '/api/v1/upload/avatar', {
      token: backend.member.token,
      body: { file: 'x' },
    });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ code: 400, message: '请通过 multipart/form-data 上传文件（字段 file）' });
  });

  it.each([
    ['avatar', '.png'],
    ['banner', '.png'],
    ['category', '.png'],
    ['config', '.png'],
    ['article', '.png'],
    ['feedback', '.png'],
    ['document', '.txt'],
  ])('refuses a %s upload of two files, keeping neither', async (kind, ext) => {
    const files = [kind, `${kind}-2`].map((name, i) =>
      ext === '.png'
        ? Buffer.concat([png(3, 3, 70, i), crypto.randomBytes(8)])
        : Buffer.from(`${name} 两个文件之一 ${crypto.randomUUID()}\n`),
    );
    const attachments = () =>
      withDatabase(backend.dataDir, async (db) =>
        Number(
          (
            await db
              .selectFrom('attachment')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
    const before = await attachments();
    for (const fields of [
      ['file', 'file'],
      ['file', 'other'],
    ]) {
      const form = new FormData();
      for (const [i, field] of fields.entries())
        form.append(field, new Blob([new Uint8Array(files[i]!)]), `f${i}${ext}`);
      const res = await fetch(`${backend.url}/api/v1/upload/${kind}`, {
        method: 'POST',
        body: form,
        headers: { authorization: `bearer ${backend.adminToken}` },
      });
      expect(res.status, fields.join()).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await res.json()) as { message: string }).message).toBe('一次只能上传一个文件');
    }
    expect(await attachments()).toBe(before);
    const stored = (file: Buffer) => {
      const md5 = crypto.createHash('md5').update(file).digest('hex');
      const folder = kind === 'document' ? 'documents' : 'uploads';
      return fs.existsSync(path.join(backend.dataDir, folder, ...md5.slice(0, 5), `${md5}${ext}`));
    };
    expect(files.map(stored)).toEqual([false, false]);
    // Sent alone, the first is taken, where the test looked for it.
    const alone = new FormData();
    alone.append('file', new Blob([new Uint8Array(files[0]!)]), `f0${ext}`);
    const res = await fetch(`${backend.url}/api/v1/upload/${kind}`, {
      method: 'POST',
      body: alone,
      headers: { authorization: `bearer ${backend.adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(files.map(stored)).toEqual([true, false]);
  });

  it('enforces the size limit of the security config and leaves no temporary file', async () => {
    await backend.setConfig({ 'security.max_document_size': '1' });
    try {
      const res = await upload('avatar', png(1, 1, 1024 * 1024 + 10), { token: backend.member.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('文件大小超出限制（最大 1 MB）');
      expect(fs.readdirSync(path.join(backend.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await backend.setConfig({ 'security.max_document_size': '50' });
    }
  });

  it('refuses content that an admin flagged as illegal', async () => {
    const file = png(9, 9, 80, 99);
    const first = await upload('avatar', file, { token: backend.member.token });
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('attachment').set({ enable: 0 }).where('id', '=', first.body.data.id).execute(),
    );
    const again = await upload('avatar', file, { token: backend.member.token });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('文件已被标记为非法文件，禁止上传');
  });
});

/** A multipart upload sent as Node's client does with `Expect: 100-continue`: the body only once the 100 has come. */
function uploadExpectingContinue(
  kind: string,
  file: Buffer,
  token: string,
): Promise<{ status: number; body: unknown; gotContinue: boolean }> {
  const boundary = 'expect-continue-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="picture.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    let gotContinue = false;
    const headers = {
      authorization: `Bearer ${token}`,
      expect: '100-continue',
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
    };
    const req = httpRequest(`${backend.url}/api/v1/upload/${kind}`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), gotContinue }),
      );
    });
    req.on('continue', () => {
      gotContinue = true;
      req.end(body);
    });
    req.on('error', reject);
  });
}

describe('uploads sent with Expect: 100-continue', () => {
  it('refuses one over the size limit from its headers, instead of the 100', async () => {
    await backend.setConfig({ 'security.max_document_size': '1' });
    try {
      const res = await uploadExpectingContinue('avatar', png(1, 1, 2 * 1024 * 1024), backend.member.token);
      expect(res).toEqual({
        status: 400,
        gotContinue: false,
        body: { code: 400, message: '文件大小超出限制（最大 1 MB）', error: '文件大小超出限制（最大 1 MB）' },
      });
    } finally {
      await backend.setConfig({ 'security.max_document_size': '50' });
    }
  });

  it('answers a refused caller instead of the 100, and takes an upload that passes after it', async () => {
    const refused = await uploadExpectingContinue('banner', png(4, 4), backend.member.token);
    expect(refused).toMatchObject({ status: 403, gotContinue: false });
    const taken = await uploadExpectingContinue('avatar', png(4, 4, 200, 7), backend.member.token);
    expect(taken).toMatchObject({ status: 200, gotContinue: true, body: { code: 200 } });
  });
});

describe('file routes', () => {
  it('serves /favicon.ico from the system config, and a default icon until one is uploaded', async () => {
    const fresh = await fetch(`${backend.url}/favicon.ico`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-type')).toBe('image/x-icon');
    const defaultIcon = Buffer.from(await fresh.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), three images.
    expect([defaultIcon.readUInt16LE(0), defaultIcon.readUInt16LE(2), defaultIcon.readUInt16LE(4)]).toEqual([0, 1, 3]);
    const uploaded = await upload('config', ico(), { token: backend.adminToken, name: 'favicon.ico' });
    expect(uploaded.body.data).toMatchObject({ ext: '.ico', width: 16, height: 16 });
    await backend.setConfig({ 'system.favicon': uploaded.body.data.path });
    const res = await fetch(`${backend.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await res.arrayBuffer()).equals(ico())).toBe(true);
  });

  it('answers a folder or a dot file under /uploads/ as a missing upload: 404, naming nothing', async () => {
    const uploaded = await upload('avatar', png(20, 20, 90, 7), { token: backend.member.token });
    expect(uploaded.status).toBe(200);
    const folder = path.posix.dirname(uploaded.body.data.path as string);
    for (const p of ['/uploads/', `${folder}/`, '/uploads/.x', `${folder}/.hidden.png`, `${folder}/none.png`]) {
      const res = await fetch(backend.url + p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).toBe('text/plain; charset=utf-8');
      expect(await res.text(), p).toBe('404 page not found');
    }
  });

  it('never serves files outside uploads/', async () => {
    const traversal = await api(backend.url, 'PUT', '/api/v1/config', {
      token: backend.adminToken,
      body: {
        config: [
          {
            id: (
              await api(backend.url, 'GET', '/api/v1/config/list', {
                token: backend.adminToken,
                query: { category: 'system' },
              })
            ).body.config.find((c: { name: string }) => c.name === 'favicon').id,
            value: '/uploads/../moredoc.db',
          },
        ],
      },
    });
    expect(traversal.status).toBe(400);
    for (const p of ['/uploads/%2e%2e/moredoc.db', '/uploads/..%2fjwt-secret', '/uploads/%2e%2e%2fjwt-secret']) {
      const res = await fetch(backend.url + p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain('SQLite');
    }
  });
});
