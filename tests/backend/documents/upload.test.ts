import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { describe, expect, it } from 'vitest';
import { DocumentStatus } from '../../../shared/constants';
import { api, registerMember, useBackend, withDatabase } from '../../helpers/backend';
import { createDocument, nonUploader, uploadDocument, uploader, waitForStatus } from '../../helpers/document-api';
import { commentedPdf, fixture, linearizedPdf } from '../../helpers/documents';
import { zip } from '../../helpers/zip';
import { startGateway } from '../../gateway/helpers';

// `POST /api/v1/upload/document` and the upload right; the multipart faults of issue 18
// (§2.4 malformed bodies, §2.6 sizes) for every upload route.

const backend = useBackend({ member: true });
const pdf = fs.readFileSync(fixture('chinese.pdf'));
const MALFORMED = '上传的数据格式不正确，请通过 multipart/form-data 上传文件（字段 file）';

const md5 = (data: Buffer) => crypto.createHash('md5').update(data).digest('hex');
const storedPath = (hash: string, ext: string) => `documents/${hash.slice(0, 5).split('').join('/')}/${hash}${ext}`;

interface RawAnswer {
  head: string;
  body: string;
  closed: boolean;
  bytesSent: number;
}

/**
 * A request over a bare socket: headers, then `body` (a string, or a generator the socket
 * drains until the server answers). Reads the whole answer; `closed` tells whether the
 * server closed the connection afterwards.
 */
function rawRequest(
  headers: string,
  body: string | (() => Generator<Buffer>),
  timeoutMs = 10_000,
  base = backend.url,
): Promise<RawAnswer> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    let bytesSent = 0;
    let answered = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms: ${received.slice(0, 200)}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      const [head = '', ...rest] = received.split('\r\n\r\n');
      resolve({ head, body: rest.join('\r\n\r\n'), closed: true, bytesSent });
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      answered = true;
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(headers);
      if (typeof body === 'string') {
        socket.write(body);
        bytesSent += Buffer.byteLength(body);
        return;
      }
      const chunks = body();
      const pump = () => {
        while (!answered && !socket.destroyed) {
          const next = chunks.next();
          if (next.done) return;
          bytesSent += next.value.length;
          if (!socket.write(next.value)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

function uploadHeaders(route: string, token: string, contentType: string, length: number | 'chunked'): string {
  const size = length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return `POST ${route} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${contentType}\r\n${size}\r\n\r\n`;
}

const part = (boundary: string, name: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;

describe('POST /api/v1/upload/document', () => {
  it('names the uploader’s own document already made from the same bytes, rendered alike, not in the recycle bin', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const other = await uploader(backend.url, backend.adminToken);
    const text = Buffer.from(`重复上传检查${crypto.randomUUID()}\n第一行,第二列\n`, 'utf8');
    expect((await uploadDocument(backend.url, member.token, text, '笔记.txt')).body.data.document).toBeUndefined();
    const doc = await createDocument(backend.url, member.token, text, '笔记.txt', { title: '读书笔记' });
    // Its status is told (the form links a converted document to its page, another to 我的文档).
    // Waited for, not written: the site's worker would overwrite a status set under it.
    await waitForStatus(backend.url, member.token, doc.id, [DocumentStatus.Converted]);

    const again = await uploadDocument(backend.url, member.token, text, '笔记（副本）.md');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({
      id: expect.any(Number),
      hash: md5(text),
      document: { id: doc.id, title: '读书笔记', status: DocumentStatus.Converted },
    });
    // Rendered otherwise (a table), another member's, or the first one deleted: nothing to tell.
    expect((await uploadDocument(backend.url, member.token, text, '笔记.csv')).body.data.document).toBeUndefined();
    expect((await uploadDocument(backend.url, other.token, text, '笔记.txt')).body.data.document).toBeUndefined();
    const deleted = await api(backend.url, 'DELETE', '/api/v1/document', {
      token: member.token,
      query: { id: doc.id },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await uploadDocument(backend.url, member.token, text, '笔记.txt')).body.data.document).toBeUndefined();
  });

  it("stores the file once under its MD5 and answers the attachment id with the file's MD5", async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const hash = md5(pdf);
    const first = await uploadDocument(backend.url, member.token, pdf, '城市图书馆.PDF');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ code: 200, message: 'ok', data: { id: expect.any(Number), hash } });
    const again = await uploadDocument(backend.url, member.token, pdf, '副本.pdf');
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect(again.body.data.hash).toBe(hash);

    const file = path.join(backend.dataDir, storedPath(hash, '.pdf'));
    expect(md5(fs.readFileSync(file))).toBe(hash);
    const rows = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('attachment')
        .select(['hash', 'type', 'type_id', 'path', 'name', 'ext', 'size'])
        .where('id', 'in', [first.body.data.id, again.body.data.id])
        .orderBy('id')
        .execute(),
    );
    expect(rows).toEqual([
      {
        hash,
        type: 2,
        type_id: 0,
        path: `/${storedPath(hash, '.pdf')}`,
        name: '城市图书馆.PDF',
        ext: '.pdf',
        size: pdf.length,
      },
      {
        hash,
        type: 2,
        type_id: 0,
        path: `/${storedPath(hash, '.pdf')}`,
        name: '副本.pdf',
        ext: '.pdf',
        size: pdf.length,
      },
    ]);
  });

  it('needs a login (401) and the upload right (403), before reading the file', async () => {
    const anonymous = await fetch(`${backend.url}/api/v1/upload/document`, { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
    const reader = await nonUploader(backend.url, backend.adminToken);
    const denied = await uploadDocument(backend.url, reader.token, pdf, 'a.pdf');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 403, message: '没有权限上传文档', error: '没有权限上传文档' });
  });

  it('refuses a member whose uploads are punished, and says so in caniuploaddocument', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    expect((await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: member.token })).body).toEqual(
      {},
    );
    const reader = await nonUploader(backend.url, backend.adminToken);
    expect(
      (await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: reader.token })).body,
    ).toMatchObject({ code: 7, message: '您没有上传文档的权限' });
    const punished = await backend.admin('POST', '/api/v1/punishment', {
      body: { user_id: [member.user.id], type: [3], enable: true },
    });
    expect(punished.status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/user/caniuploaddocument', { token: member.token })).status).toBe(
      403,
    );
    expect((await uploadDocument(backend.url, member.token, pdf, 'a.pdf')).status).toBe(403);
  });

  it('takes the document extensions only, narrowed by security.document_allowed_ext', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    for (const name of ['setup.exe', 'book.umd', 'archive.zip', 'noextension']) {
      const res = await uploadDocument(backend.url, member.token, pdf, name);
      expect(res.status, name).toBe(400);
      expect(res.body.message).toBe('不支持的文档类型');
    }
    await backend.setConfig({ 'security.document_allowed_ext': '.pdf,.txt' });
    try {
      expect((await uploadDocument(backend.url, member.token, pdf, 'a.docx')).body.message).toBe('不支持的文档类型');
      expect((await uploadDocument(backend.url, member.token, Buffer.from('正文'), 'a.txt')).status).toBe(200);
    } finally {
      await backend.setConfig({ 'security.document_allowed_ext': '' });
    }
  });

  it('refuses an empty file and a banned one', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    expect((await uploadDocument(backend.url, member.token, Buffer.alloc(0), 'empty.pdf')).body).toMatchObject({
      code: 400,
      message: '文件为空',
    });
    const banned = Buffer.from('%PDF-1.4\n1 0 obj\n(banned content)\nendobj\n');
    const first = await uploadDocument(backend.url, member.token, banned, 'x.pdf');
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('attachment').set({ enable: 0 }).where('id', '=', first.body.data.id).execute(),
    );
    expect((await uploadDocument(backend.url, member.token, banned, 'y.pdf')).body.message).toBe(
      '文件已被标记为非法文件，禁止上传',
    );
  });

  it('refuses a file whose bytes belie its extension, keeping nothing, and takes the disguises that convert', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const png = Buffer.from(`89504e470d0a1a0a${'00'.repeat(24)}`, 'hex');
    const belied: [Buffer, string][] = [
      [zip([{ name: 'notes.txt', data: '一个普通的压缩包' }]), '资料.pdf'],
      [pdf, '报告.docx'],
      [pdf, '小说.epub'],
      [png, '截图.txt'],
      // A zip as an Office file is, but an e-book's: LibreOffice only fails it (LibreOffice 无法转换此文档).
      [fs.readFileSync(fixture('chinese.epub')), '电子书.docx'],
      [Buffer.from('只是一段文字，不是 PDF\n'), '笔记.pdf'],
    ];
    for (const [bytes, name] of belied) {
      const ext = name.slice(name.lastIndexOf('.'));
      expect(await uploadDocument(backend.url, member.token, bytes, name), name).toMatchObject({
        status: 400,
        body: { code: 400, message: `文件内容与扩展名 ${ext} 不符，请确认文件的格式后重新上传` },
      });
      expect(fs.existsSync(path.join(backend.dataDir, storedPath(md5(bytes), ext))), name).toBe(false);
    }
    // What converts under an extension not its own: an HTML page or CSV named as Office files, a docx as .doc.
    const disguised: [Buffer, string][] = [
      [Buffer.from('<html><body><p>网页导出的文档</p></body></html>'), '导出.doc'],
      [Buffer.from('名称,数量\n苹果,3\n'), '表格.xlsx'],
      [fs.readFileSync(fixture('chinese.docx')), '旧格式.doc'],
    ];
    for (const [bytes, name] of disguised)
      expect((await uploadDocument(backend.url, member.token, bytes, name)).status, name).toBe(200);
  });
});

describe('PDF uploads without content', () => {
  it('refuses a PDF that holds no object at all, keeping nothing, and takes real ones however they begin and end', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const empty: [Buffer, string][] = [
      // The header alone: MuPDF finds no objects, its conversion could only fail.
      [Buffer.from('%PDF-1.4'), '八字节.pdf'],
      [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), '只有文件头.pdf'],
      // A header and junk, longer than the part read at the upload.
      [Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(100 * 1024)]), '乱码.pdf'],
      // An object's header in a comment is no object.
      [Buffer.from('%PDF-1.4\n%1 0 obj\n'), '注释里的对象.pdf'],
      [commentedPdf(1024).subarray(0, 9 + 1024), '只有注释.pdf'],
    ];
    for (const [bytes, name] of empty) {
      expect(await uploadDocument(backend.url, member.token, bytes, name), name).toMatchObject({
        status: 400,
        body: { code: 400, message: 'PDF 文件已损坏或不完整（其中没有任何内容），请上传完整的文件' },
      });
      expect(fs.existsSync(path.join(backend.dataDir, storedPath(md5(bytes), '.pdf'))), name).toBe(false);
    }
    const scanned = fs.readFileSync(fixture('scanned.pdf'));
    const real: [Buffer, string][] = [
      [pdf, '文字版.pdf'],
      [scanned, '扫描版.pdf'],
      [linearizedPdf(), '线性化.pdf'],
      // Junk after %%EOF (a mail client's or a download's), beyond the kilobyte readers look in.
      [Buffer.concat([pdf, crypto.randomBytes(4096)]), '末尾有多余数据.pdf'],
      // Cut short, without its xref: the conversion repairs it or names the missing page.
      [pdf.subarray(0, pdf.length - 2048), '不完整.pdf'],
    ];
    for (const [bytes, name] of real)
      expect((await uploadDocument(backend.url, member.token, bytes, name)).status, name).toBe(200);
  });

  it('takes a valid PDF whose comments before its first object run past the part read at the upload', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const commented: [Buffer, string][] = [
      [commentedPdf(80 * 1024), '长注释.pdf'],
      [commentedPdf(80 * 1024, 80), '多行注释.pdf'],
    ];
    for (const [bytes, name] of commented) {
      // Valid as it is: MuPDF reads it without repairing anything.
      const document = mupdf.PDFDocument.openDocument(bytes, 'application/pdf') as mupdf.PDFDocument;
      expect([document.countPages(), document.wasRepaired()], name).toEqual([1, false]);
      expect(await uploadDocument(backend.url, member.token, bytes, name), name).toMatchObject({
        status: 200,
        body: { code: 200, data: { hash: md5(bytes) } },
      });
    }
  });
});

describe('upload sizes (issue 18 §2.6)', () => {
  it('refuses a body whose Content-Length passes the limit at once, without reading it', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    await backend.setConfig({ 'security.max_document_size': '1' });
    try {
      // 200 MB announced, a few bytes sent: the answer comes without waiting for the rest.
      const answer = await rawRequest(
        uploadHeaders('/api/v1/upload/document', member.token, 'multipart/form-data; boundary=x', 200 * 1024 * 1024),
        part('x', 'big.pdf'),
      );
      expect(answer.head).toMatch(/^HTTP\/1\.1 400/);
      expect(answer.head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(answer.body)).toEqual({
        code: 400,
        message: '文件大小超出限制（最大 1 MB）',
        error: '文件大小超出限制（最大 1 MB）',
      });
    } finally {
      await backend.setConfig({ 'security.max_document_size': '50' });
    }
  });

  const limit = 64 * 1024 * 1024;
  /** A chunked body that never ends by itself (up to 64 MB): only an answer from the server stops it. */
  function* endless(): Generator<Buffer> {
    const block = Buffer.alloc(64 * 1024, 0x41);
    const chunk = (data: Buffer) =>
      Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
    yield chunk(Buffer.from(part('x', 'big.pdf')));
    for (let sent = 0; sent < limit; sent += block.length) yield chunk(block);
  }

  it('stops reading a chunked body the moment it passes the limit, and keeps nothing', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    await backend.setConfig({ 'security.max_document_size': '1' });
    try {
      const answer = await rawRequest(
        uploadHeaders('/api/v1/upload/document', member.token, 'multipart/form-data; boundary=x', 'chunked'),
        endless,
        20_000,
      );
      expect(answer.head).toMatch(/^HTTP\/1\.1 400/);
      expect(JSON.parse(answer.body).message).toBe('文件大小超出限制（最大 1 MB）');
      expect(answer.bytesSent).toBeLessThan(limit);
      expect(fs.readdirSync(path.join(backend.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await backend.setConfig({ 'security.max_document_size': '50' });
    }
  });

  it('answers the same through the gateway, for an announced and for a chunked body', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const gateway = await startGateway(backend.url);
    await backend.setConfig({ 'security.max_document_size': '1' });
    try {
      for (const length of [200 * 1024 * 1024, 'chunked'] as const) {
        const answer = await rawRequest(
          uploadHeaders('/api/v1/upload/document', member.token, 'multipart/form-data; boundary=x', length),
          endless,
          20_000,
          gateway.url,
        );
        expect(answer.head, String(length)).toMatch(/^HTTP\/1\.1 400/);
        expect(JSON.parse(answer.body).message).toBe('文件大小超出限制（最大 1 MB）');
        expect(answer.bytesSent).toBeLessThan(limit);
      }
    } finally {
      await backend.setConfig({ 'security.max_document_size': '50' });
      await gateway.close();
    }
  });
});

describe('malformed multipart bodies (issue 18 §2.4)', () => {
  const cases = (name: string): [string, string, string][] => [
    ['no boundary', 'multipart/form-data', `${part('x', name)}%PDF-1.4\r\n--x--\r\n`],
    [
      'a 300-character boundary',
      `multipart/form-data; boundary=${'b'.repeat(300)}`,
      `${part('b'.repeat(300), name)}%PDF-1.4\r\n--${'b'.repeat(300)}--\r\n`,
    ],
    ['a body cut short', 'multipart/form-data; boundary=x', `${part('x', name)}%PDF-1.4 the rest never comes`],
    [
      'part headers cut short',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="file"; filena',
    ],
  ];

  it.each([
    ['document', 'a.pdf'],
    ['avatar', 'a.png'],
  ])('/api/v1/upload/%s answers each with a 400, never a 500', async (kind, name) => {
    const member = await uploader(backend.url, backend.adminToken);
    const token = kind === 'avatar' ? (await registerMember(backend.url)).token : member.token;
    for (const [what, contentType, body] of cases(name)) {
      const answer = await rawRequest(
        uploadHeaders(`/api/v1/upload/${kind}`, token, contentType, Buffer.byteLength(body)),
        body,
      );
      expect(answer.head, what).toMatch(/^HTTP\/1\.1 400/);
      expect(JSON.parse(answer.body), what).toEqual({ code: 400, message: MALFORMED, error: MALFORMED });
    }
    expect(fs.readdirSync(path.join(backend.dataDir, 'tmp'))).toEqual([]);
  });
});
