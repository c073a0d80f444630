import { describe, expect, it } from 'vitest';
import { api, login, registerMember, useBackend, withDatabase } from '../helpers/backend';
import { uploadDocument, uploader } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';

// Names and titles people write (uploaded file names, document and article titles,
// usernames, category names) are stored without control characters or bidi overrides and
// isolates, whose only use in a one-line name is to make it read as something else.

const backend = useBackend();

const attachmentName = (id: number) =>
  withDatabase(
    backend.dataDir,
    async (db) =>
      (await db.selectFrom('attachment').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name,
  );

describe('uploaded file names', () => {
  it.each([
    ['a\u0000.pdf', 'a.pdf'],
    ['a\u0007b.pdf', 'ab.pdf'],
    ['doc\u202efdp.exe.pdf', 'docfdp.exe.pdf'],
    ['\u2066年度\u0085报告\u2069.pdf', '年度 报告.pdf'],
  ])('stores %j as %j', async (sent, stored) => {
    const member = await uploader(backend.url, backend.adminToken);
    const res = await uploadDocument(backend.url, member.token, textPdf(1), sent);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await attachmentName(res.body.data.id)).toBe(stored);
  });

  it('refuses a name made only of what cleaning removes', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const res = await uploadDocument(backend.url, member.token, textPdf(1), '\u202e\u0007');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 400,
      message: '文件名不能只包含控制字符或文字方向符号',
      error: '文件名不能只包含控制字符或文字方向符号',
    });
  });
});

describe('document titles', () => {
  it('stores the title cleaned, and the download carries the cleaned name', async () => {
    const member = await uploader(backend.url, backend.adminToken);
    const upload = await uploadDocument(backend.url, member.token, textPdf(1), 'report.pdf');
    const document = (title: string) => ({
      category_id: [],
      document: [{ title, attachment_id: upload.body.data.id, price: 0 }],
    });

    const refused = await api(backend.url, 'POST', '/api/v1/document', {
      token: member.token,
      body: document('\u202e\u2066'),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('文档标题不能只包含控制字符或文字方向符号');

    const created = await api(backend.url, 'POST', '/api/v1/document', {
      token: member.token,
      body: document('report\u202etxt.exe\tfinal'),
    });
    expect(created.status, created.text).toBe(200);
    const list = await api(backend.url, 'GET', '/api/v1/document/list', {
      token: member.token,
      query: { user_id: member.user.id },
    });
    const [doc] = list.body.document as { id: number; title: string }[];
    expect(doc!.title).toBe('reporttxt.exe final');

    const download = await api(backend.url, 'GET', '/api/v1/document/download', {
      token: member.token,
      query: { id: doc!.id },
    });
    expect(download.status, download.text).toBe(200);
    const link = new URL(download.body.url, backend.url);
    expect(link.searchParams.get('filename')).toBe('reporttxt.exe final.pdf');
    const file = await fetch(link);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="reporttxt.exe final.pdf"');
  });
});

describe('usernames', () => {
  it('registers the name cleaned, and logs in with what was typed', async () => {
    const typed = `amy\u202e${process.pid}\u2066x`;
    const member = await registerMember(backend.url, { username: typed });
    expect(member.user.username).toBe(`amy${process.pid}x`);
    expect(await login(backend.url, typed, member.password)).toBeTruthy();
    expect(await login(backend.url, `amy${process.pid}x`, member.password)).toBeTruthy();
  });
});

describe('article and category names', () => {
  it('stores them cleaned and refuses one that is nothing else', async () => {
    const category = await api(backend.url, 'POST', '/api/v1/category', {
      token: backend.adminToken,
      body: { title: '\u0000', type: 1 },
    });
    expect(category.status).toBe(400);
    expect(category.body.message).toBe('分类名称不能只包含控制字符或文字方向符号');
    expect(
      (
        await api(backend.url, 'POST', '/api/v1/category', {
          token: backend.adminToken,
          body: { title: '公告\u202e栏', type: 1 },
        })
      ).status,
    ).toBe(200);
    const categories = await api(backend.url, 'GET', '/api/v1/category/list', { query: { type: 1 } });
    expect((categories.body.category as { title: string }[]).map((c) => c.title)).toContain('公告栏');

    const article = await api(backend.url, 'POST', '/api/v1/article', {
      token: backend.adminToken,
      body: { title: '站点\u0085公告\u202d', content: '<p>正文</p>' },
    });
    expect(article.status, article.text).toBe(200);
    const stored = await api(backend.url, 'GET', '/api/v1/article', {
      token: backend.adminToken,
      query: { id: article.body.id },
    });
    expect(stored.body.title).toBe('站点 公告');
  });
});
