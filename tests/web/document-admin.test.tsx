// The member's 我的文档 / 我的收藏 / 我的下载 and the admin's document screens, inside the real
// route tree with a scripted backend: what they list, and the writes they send.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Document } from '../../shared/types/document';
import type { Permission } from '../../shared/types/permission';
import { CONVERSION_POLL } from '../../web/src/features/document/conversion';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { expectConversionPolling, fakePolling, nextPoll } from './polling';
import { admin, adminPermissions, member, renderApp, settings } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const requests = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (init?.method ?? 'GET') === method && new URL(String(url), 'http://localhost').pathname === path,
  );
const bodyOf = (call: unknown[] | undefined) => JSON.parse(String((call?.[1] as RequestInit | undefined)?.body));
const queryOf = (call: unknown[] | undefined) => new URL(String(call?.[0]), 'http://localhost').searchParams;
const toasted = (title: string) => waitFor(() => expect(toasts.value.map((t) => t.title)).toContain(title));

/** Clicks `button`, confirms, waits for the toast `done` and answers the ids the DELETE to `path` carried. */
async function confirmDelete(
  fetchMock: ReturnType<typeof renderApp>['fetchMock'],
  button: string,
  done: string,
  path: string,
): Promise<string[]> {
  await userEvent.click(screen.getByRole('button', { name: button }));
  await userEvent.click(screen.getByRole('button', { name: '确定' }));
  await toasted(done);
  return queryOf(requests(fetchMock, 'DELETE', path)[0]).getAll('id');
}

const doc = (id: number, title: string, extra: Partial<Document> = {}): Document => ({
  id,
  title,
  ext: '.pdf',
  pages: 3,
  size: 2048,
  status: 2,
  category_id: [7],
  category: [{ id: 7, title: '教育资料' }],
  username: 'amy',
  ...extra,
});

/** ListDocument's answer: these documents, all there are. */
const documentList = (...documents: Document[]) => ({
  status: 200,
  body: { total: documents.length, document: documents },
});

describe('member area', () => {
  it('lists my documents with their status, edits one and deletes another after confirming', async () => {
    const { fetchMock } = renderApp('/member/document', {
      user: member,
      backend: {
        'GET /api/v1/document/list': documentList(
          doc(1, '年度报告', { price: 5 }),
          doc(2, '坏文件', { status: 3, pages: 0, convert_error: '文件已损坏' }),
        ),
        'PUT /api/v1/document': { status: 200, body: {} },
        'DELETE /api/v1/document': { status: 200, body: {} },
      },
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('已转换')).toBeTruthy();
    expect(within(table).getByText('转换失败')).toBeTruthy();
    expect(within(table).getByText('文件已损坏')).toBeTruthy();
    expect(queryOf(requests(fetchMock, 'GET', '/api/v1/document/list')[0]).getAll('user_id')).toEqual(['2']);

    await userEvent.click(screen.getByRole('button', { name: '编辑“年度报告”' }));
    const title = screen.getByLabelText('标题') as HTMLInputElement;
    expect(title.value).toBe('年度报告');
    await userEvent.clear(title);
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(screen.getByText('请输入文档标题')).toBeTruthy();
    await userEvent.type(title, '2026 年度报告');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await toasted('保存成功');
    expect(bodyOf(requests(fetchMock, 'PUT', '/api/v1/document')[0])).toMatchObject({
      id: 1,
      title: '2026 年度报告',
      price: 5,
      category_id: [7],
    });

    expect(await confirmDelete(fetchMock, '删除“坏文件”', '删除成功', '/api/v1/document')).toEqual(['2']);
  });

  it('lists my favourites and removes one', async () => {
    const { fetchMock } = renderApp('/member/favorite', {
      user: member,
      backend: {
        'GET /api/v1/favorite/list': {
          status: 200,
          body: { total: 1, favorite: [{ id: 9, document_id: 4, title: '古籍修复', ext: '.pdf', pages: 8 }] },
        },
        'DELETE /api/v1/favorite': { status: 200, body: {} },
      },
    });
    expect((await screen.findByRole('link', { name: '古籍修复' })).getAttribute('href')).toBe('/library/1/4');
    expect(await confirmDelete(fetchMock, '取消收藏“古籍修复”', '已取消收藏', '/api/v1/favorite')).toEqual(['9']);
  });

  it('lists my favourite articles on their own tab, linked to the article', async () => {
    const { fetchMock } = renderApp('/member/favorite', {
      user: member,
      backend: {
        'GET /api/v1/favorite/list': (url: URL) =>
          url.searchParams.get('type') === '1'
            ? {
                status: 200,
                body: {
                  total: 2,
                  favorite: [
                    { id: 12, document_id: 5, type: 1, title: '修复手记', document_uuid: 'repair-notes' },
                    { id: 13, document_id: 6, type: 1 },
                  ],
                },
              }
            : { status: 200, body: { total: 0, favorite: [] } },
        'DELETE /api/v1/favorite': { status: 200, body: {} },
      },
    });
    expect(await screen.findByText('暂无收藏的文档')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: '文章' }));
    expect((await screen.findByRole('link', { name: '修复手记' })).getAttribute('href')).toBe(
      '/article/detail/repair-notes',
    );
    expect(screen.getByText('已删除的文章')).toBeTruthy();
    expect(screen.getByRole('tab', { name: '文章' }).getAttribute('aria-selected')).toBe('true');
    expect(await confirmDelete(fetchMock, '取消收藏“修复手记”', '已取消收藏', '/api/v1/favorite')).toEqual(['12']);
    expect(requests(fetchMock, 'GET', '/api/v1/favorite/list').map((r) => queryOf(r).get('type'))).toEqual(
      expect.arrayContaining(['0', '1']),
    );
  });

  it('shows real download records, paid or free', async () => {
    renderApp('/member/download', {
      user: member,
      backend: {
        'GET /api/v1/user/download': {
          status: 200,
          body: {
            total: 2,
            download: [
              { id: 1, document_id: 4, title: '古籍修复', is_pay: true },
              { id: 2, document_id: 5, title: '免费资料' },
            ],
          },
        },
      },
    });
    expect((await screen.findByRole('link', { name: '古籍修复' })).getAttribute('href')).toBe('/library/1/4');
    expect(screen.getByText('付费（魔豆）')).toBeTruthy();
    expect(screen.getByText('免费')).toBeTruthy();
  });
});

const perm = (id: number, service: string, rpc: string): Permission => ({
  id,
  method: 'GRPC',
  path: `/api.v1.${service}/${rpc}`,
  title: rpc,
});

describe('a document in review whose conversion failed', () => {
  const encrypted = doc(3, '加密文件', { status: 6, pages: 0, convert_error: '文档已加密，无法转换' });
  const converting = doc(4, '审核中的文档', { status: 6, pages: 0 });
  const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

  it('says so in 我的文档, with what to do, and links documents not yet public to the reader', async () => {
    renderApp('/member/document', {
      user: member,
      backend: { 'GET /api/v1/document/list': documentList(encrypted, converting) },
    });
    await screen.findByRole('table');
    expect(within(row('加密文件')).getByText('待审核')).toBeTruthy();
    expect(within(row('加密文件')).getByText('转换失败：文档已加密，无法转换')).toBeTruthy();
    expect(within(row('加密文件')).getByText(/请删除该文档，检查文件.*后重新上传/)).toBeTruthy();
    expect(within(row('审核中的文档')).getByText('待审核')).toBeTruthy();
    expect(within(row('审核中的文档')).queryByText(/转换失败/)).toBeNull();
    expect(screen.getByRole('link', { name: '审核中的文档' }).getAttribute('href')).toBe('/library/7/4');
  });

  it('says so to the reviewer in the admin list', async () => {
    renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      settings: { system: { sitename: '测试文库' }, language: [{ id: 1, language: '中文（简体）', code: 'zh-CN' }] },
      backend: { 'GET /api/v1/document/list': documentList(encrypted, converting) },
    });
    await screen.findByText('加密文件');
    expect(within(row('加密文件')).getByText('转换失败：文档已加密，无法转换（审核通过时将重新转换）')).toBeTruthy();
    expect(within(row('审核中的文档')).queryByText(/转换失败/)).toBeNull();
  });
});

describe('admin document screens', () => {
  it('lists documents with their status and conversion error, and runs batch and row actions', async () => {
    const { fetchMock } = renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      settings: { system: { sitename: '测试文库' }, language: [{ id: 1, language: '中文（简体）', code: 'zh-CN' }] },
      backend: {
        'GET /api/v1/document/list': documentList(
          doc(1, '待审核的文档', { status: 6 }),
          doc(2, '转换失败的文档', { status: 3, convert_error: '文件已损坏' }),
        ),
        'PUT /api/v1/document/check': { status: 200, body: {} },
        'PUT /api/v1/document/category': { status: 200, body: {} },
        'PUT /api/v1/document/reconvert': { status: 200, body: {} },
      },
    });
    expect(await screen.findByRole('heading', { name: '文档列表' })).toBeTruthy();
    const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
    await screen.findByText('待审核的文档');
    expect(within(row('待审核的文档')).getByText('待审核')).toBeTruthy();
    expect(within(row('转换失败的文档')).getByText('文件已损坏')).toBeTruthy();
    expect(within(row('待审核的文档')).getByRole('link', { name: '阅读“待审核的文档”' }).getAttribute('href')).toBe(
      '/library/7/1',
    );

    await userEvent.click(within(row('待审核的文档')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: '审核通过' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await toasted('已审核通过');
    expect(bodyOf(requests(fetchMock, 'PUT', '/api/v1/document/check')[0])).toEqual({ id: [1], status: 2 });

    await userEvent.click(within(row('转换失败的文档')).getByRole('button', { name: '重新转换“转换失败的文档”' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await toasted('已加入转换队列');
    expect(bodyOf(requests(fetchMock, 'PUT', '/api/v1/document/reconvert')[0])).toEqual({ id: [2] });

    // Setting a category asks for it first (picking one is done in the browser test).
    await userEvent.click(within(row('转换失败的文档')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: '设置分类' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('请选择分类');
    expect(requests(fetchMock, 'PUT', '/api/v1/document/category')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
  });

  it("shows a price with the site's credit name, 免费 without one", async () => {
    renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      settings: { system: { sitename: '测试文库', credit_name: '金币' } },
      backend: {
        'GET /api/v1/document/list': documentList(
          doc(1, '收费的文档', { price: 2 }),
          doc(2, '免费的文档', { price: 0 }),
        ),
      },
    });
    await screen.findByText('收费的文档');
    const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
    expect(within(row('收费的文档')).getByText('2 金币')).toBeTruthy();
    expect(within(row('免费的文档')).getByText('免费')).toBeTruthy();
  });

  it('rejects documents with a reason for their uploaders', async () => {
    const { fetchMock } = renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      backend: {
        'GET /api/v1/document/list': documentList(doc(1, '整本教材的扫描件', { status: 6 })),
        'PUT /api/v1/document/check': { status: 200, body: {} },
      },
    });
    const title = await screen.findByText('整本教材的扫描件');
    await userEvent.click(within(title.closest('tr') as HTMLElement).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: '审核拒绝' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(
      within(dialog).getByLabelText('拒绝原因（上传者可以看到）'),
      '  涉嫌侵权，请上传自己的作品。 ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await toasted('已拒绝');
    expect(bodyOf(requests(fetchMock, 'PUT', '/api/v1/document/check')[0])).toEqual({
      id: [1],
      status: 7,
      reason: '涉嫌侵权，请上传自己的作品。',
    });
  });

  it('opened at an address filtering by uploader, names the uploader, not their id', async () => {
    const { fetchMock } = renderApp('/admin/document/list?user=2&status=6', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      settings: { system: { sitename: '测试文库' }, language: [{ id: 1, language: '中文（简体）', code: 'zh-CN' }] },
      backend: {
        'GET /api/v1/document/list': documentList(doc(1, '待审核的文档', { status: 6 })),
        'GET /api/v1/user/list': (url) => ({
          status: 200,
          body: url.searchParams.getAll('id').join() === '2' ? { user: [{ id: 2, username: 'reader01' }] } : {},
        }),
      },
    });
    await screen.findByText('待审核的文档');
    const listed = requests(fetchMock, 'GET', '/api/v1/document/list').map(([url]) => new URL(String(url), 'http://x'));
    expect(listed[0]?.searchParams.get('user_id')).toBe('2');
    const uploader = document.getElementById('admin-document-filter-user') as HTMLElement;
    await waitFor(() => expect(uploader.textContent).toContain('reader01'));
    expect(uploader.textContent).not.toMatch(/^2$|#2/);
  });

  it('edits a document whose conversion ended while the form was open without sending back the status it had', async () => {
    let status = 1;
    const { fetchMock } = renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument'), perm(2, 'DocumentAPI', 'UpdateDocument')],
      backend: {
        'GET /api/v1/document/list': () =>
          documentList(doc(1, '转换中的文档', { status, pages: status === 2 ? 3 : 0 })),
        'GET /api/v1/document': () => ({ status: 200, body: doc(1, '转换中的文档', { status, pages: 3 }) }),
        'PUT /api/v1/document': { status: 200, body: {} },
      },
    });
    await screen.findByText('转换中的文档');
    await userEvent.click(screen.getByRole('button', { name: '编辑“转换中的文档”' }));
    // The conversion ends while the form is open; the admin changes the title only.
    status = 2;
    const title = screen.getByLabelText('标题') as HTMLInputElement;
    await userEvent.clear(title);
    await userEvent.type(title, '改过标题的文档');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await toasted('保存成功');
    expect(bodyOf(requests(fetchMock, 'PUT', '/api/v1/document')[0])).toMatchObject({
      id: 1,
      title: '改过标题的文档',
      status: 2,
    });
  });

  it('follows approved documents through their conversion without a reload, and stops asking once none converts', async () => {
    fakePolling();
    let approved = false;
    let listedSinceApproval = 0;
    const { fetchMock } = renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument'), perm(2, 'DocumentAPI', 'CheckDocument')],
      backend: {
        'GET /api/v1/document/list': () => {
          if (!approved)
            return {
              status: 200,
              body: { total: 2, document: [doc(1, '待审核的文档', { status: 6 }), doc(2, '坏文件', { status: 6 })] },
            };
          listedSinceApproval += 1;
          // The first answer after the approval: both wait (0) or convert (1); then one converted, one failed.
          const [first, second] = listedSinceApproval === 1 ? [0, 1] : [2, 3];
          return {
            status: 200,
            body: {
              total: 2,
              document: [doc(1, '待审核的文档', { status: first }), doc(2, '坏文件', { status: second })],
            },
          };
        },
        'PUT /api/v1/document/check': () => {
          approved = true;
          return { status: 200, body: {} };
        },
      },
    });
    const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
    await screen.findByText('待审核的文档');
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“待审核的文档”' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“坏文件”' }));
    await userEvent.click(screen.getByRole('button', { name: '审核通过' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await toasted('已审核通过');
    expect(await within(row('待审核的文档')).findByText('待转换')).toBeTruthy();
    expect(within(row('坏文件')).getByText('转换中')).toBeTruthy();

    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await within(row('待审核的文档')).findByText('已转换')).toBeTruthy();
    expect(within(row('坏文件')).getByText('转换失败')).toBeTruthy();
    const listed = requests(fetchMock, 'GET', '/api/v1/document/list').length;
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(requests(fetchMock, 'GET', '/api/v1/document/list')).toHaveLength(listed);
  });

  it('follows documents in review whose conversion is underway, after the converting ones ended, then stops asking', async () => {
    fakePolling();
    // What the backend says at first: one document converting and two in review without pages.
    const inReview = [doc(2, '复习资料', { status: 6, pages: 0 }), doc(3, '加密文件', { status: 6, pages: 0 })];
    const converted = doc(1, '年度报告', { status: 2, pages: 5 });
    let documents = [doc(1, '年度报告', { status: 1, pages: 0 }), ...inReview];
    const { fetchMock } = renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      backend: { 'GET /api/v1/document/list': () => documentList(...documents) },
    });
    const row = (text: string) => within(screen.getByText(text).closest('tr') as HTMLElement);
    const listed = () => requests(fetchMock, 'GET', '/api/v1/document/list').length;
    await screen.findByText('年度报告');
    expect(row('年度报告').getByText('转换中')).toBeTruthy();
    expect(row('复习资料').getByText('待审核')).toBeTruthy();

    documents = [converted, ...inReview];
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await row('年度报告').findByText('已转换')).toBeTruthy();
    expect(row('年度报告').getByText(/^5 页/)).toBeTruthy();
    // Nothing converts any more, but two documents in review have neither pages nor a failure.
    documents = [
      converted,
      doc(2, '复习资料', { status: 6, pages: 8 }),
      doc(3, '加密文件', { status: 6, pages: 0, convert_error: '文档已加密，无法转换' }),
    ];
    await nextPoll(CONVERSION_POLL.firstMs * 2);
    expect(await row('复习资料').findByText(/^8 页/)).toBeTruthy();
    expect(row('复习资料').getByText('待审核')).toBeTruthy();
    expect(row('加密文件').getByText('转换失败：文档已加密，无法转换（审核通过时将重新转换）')).toBeTruthy();
    expect(row('加密文件').getByText('待审核')).toBeTruthy();

    const asked = listed();
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(listed()).toBe(asked);
  });

  it('shows how far each converting document is, 等待转换 for one in review still queued, until it ends', async () => {
    fakePolling();
    let ended = false;
    // An admin who may list documents only: the list says how far each is (ours); GetDocument would answer
    // the one in review 404 (decision 096), and is not asked.
    const { fetchMock } = renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      backend: {
        'GET /api/v1/document/list': () =>
          documentList(
            ended
              ? doc(1, '年度报告', { status: 2, pages: 10 })
              : doc(1, '年度报告', { status: 1, pages: 0, convert_progress: { done: 4, total: 10 } }),
            doc(2, '复习资料', { status: 6, pages: 0, convert_progress: {} }),
          ),
        'GET /api/v1/document': () => ({ status: 404, body: { code: 5, message: '文档不存在' } }),
      },
    });
    const row = (text: string) => within(screen.getByText(text).closest('tr') as HTMLElement);
    await screen.findByText('年度报告');
    expect(await row('年度报告').findByText('已完成 4 / 10 页')).toBeTruthy();
    expect((row('年度报告').getByRole('progressbar', { name: '年度报告 转换进度' }) as HTMLProgressElement).value).toBe(
      4,
    );
    expect(await row('复习资料').findByText('等待转换，审核通过后公开')).toBeTruthy();

    ended = true;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await row('年度报告').findByText('已转换')).toBeTruthy();
    expect(row('年度报告').queryByRole('progressbar')).toBeNull();
    expect(row('复习资料').getByText('等待转换，审核通过后公开')).toBeTruthy();
    expect(requests(fetchMock, 'GET', '/api/v1/document')).toEqual([]);
  });

  it('keeps documents reconverted under the 转换失败 filter on show and follows them to the end of their conversion', async () => {
    fakePolling();
    // The site's documents, as the backend has them: three failed, one converted.
    const site = new Map<number, Document>([
      [4, doc(4, '已转换的文档')],
      [3, doc(3, '损坏的表格', { status: 3, pages: 0, convert_error: '文件已损坏' })],
      [2, doc(2, '超时的报告', { status: 3, pages: 0, convert_error: '转换超时' })],
      [1, doc(1, '加密的合同', { status: 3, pages: 0, convert_error: '文档已加密，无法转换' })],
    ]);
    const set = (id: number, extra: Partial<Document>) => site.set(id, { ...(site.get(id) as Document), ...extra });
    const { fetchMock } = renderApp('/admin/document/list?status=3', {
      user: admin,
      permissions: [
        perm(1, 'DocumentAPI', 'ListDocument'),
        perm(2, 'DocumentAPI', 'SetDocumentReconvert'),
        perm(3, 'DocumentAPI', 'DeleteDocument'),
      ],
      backend: {
        'GET /api/v1/document/list': (url) => {
          const statuses = url.searchParams.getAll('status').map(Number);
          return documentList(
            ...[...site.values()].filter(
              (d) => !d.deleted_at && (!statuses.length || statuses.includes(d.status ?? 0)),
            ),
          );
        },
        'GET /api/v1/document': (url) => {
          const found = site.get(Number(url.searchParams.get('id')));
          return found
            ? { status: 200, body: { ...found, content: '正文' } }
            : { status: 404, body: { code: 5, message: '文档不存在' } };
        },
        'PUT /api/v1/document/reconvert': (_url, init) => {
          for (const id of JSON.parse(String(init.body)).id as number[])
            set(id, { status: 0, convert_error: undefined });
          return { status: 200, body: {} };
        },
        // To the recycle bin, where the admin may still read it.
        'DELETE /api/v1/document': (url) => {
          for (const id of url.searchParams.getAll('id')) set(Number(id), { deleted_at: '2026-12-01T08:00:00Z' });
          return { status: 200, body: {} };
        },
      },
    });
    const row = (text: string) => within(screen.getByText(text).closest('tr') as HTMLElement);
    // The rows in order, by their checkboxes' names.
    const titles = () =>
      screen.getAllByRole('checkbox', { name: /^选择“/ }).map((box) => box.getAttribute('aria-label')?.slice(3, -1));
    await screen.findByText('超时的报告');

    await userEvent.click(row('超时的报告').getByRole('button', { name: '重新转换“超时的报告”' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await toasted('已加入转换队列');
    // It no longer matches the filter, and stays where it was, queued.
    expect(await row('超时的报告').findByText('待转换')).toBeTruthy();
    expect(row('超时的报告').queryByText('转换超时')).toBeNull();
    expect(titles()).toEqual(['损坏的表格', '超时的报告', '加密的合同']);

    // 批量重新转换 keeps its rows too.
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“损坏的表格”' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“加密的合同”' }));
    await userEvent.click(screen.getByRole('button', { name: '重新转换' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(requests(fetchMock, 'PUT', '/api/v1/document/reconvert')).toHaveLength(2));
    await waitFor(() => expect(screen.getAllByText('待转换')).toHaveLength(3));
    expect(titles()).toEqual(['损坏的表格', '超时的报告', '加密的合同']);

    // The conversions end, two converted, one still going.
    set(2, { status: 2, pages: 5 });
    set(3, { status: 2, pages: 4 });
    set(1, { status: 1 });
    // However far the run of asks has gone (decision 047), the next ask is due within its longest wait.
    await nextPoll(CONVERSION_POLL.maxMs);
    expect(await row('超时的报告').findByText('已转换')).toBeTruthy();
    expect(row('超时的报告').getByText(/^5 页/)).toBeTruthy();
    expect(row('损坏的表格').getByText('已转换')).toBeTruthy();
    expect(row('加密的合同').getByText('转换中')).toBeTruthy();
    set(1, { status: 3, convert_error: '文档已加密，无法转换' });
    await nextPoll(CONVERSION_POLL.maxMs);
    // It failed again: the filter's own again.
    expect(await row('加密的合同').findByText('文档已加密，无法转换')).toBeTruthy();
    const listed = requests(fetchMock, 'GET', '/api/v1/document/list').length;
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(requests(fetchMock, 'GET', '/api/v1/document/list')).toHaveLength(listed);

    // A kept row the admin deletes leaves the list.
    await userEvent.click(row('损坏的表格').getByRole('button', { name: '删除“损坏的表格”' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '删除' }));
    await toasted('删除成功');
    await waitFor(() => expect(titles()).toEqual(['超时的报告', '加密的合同']));

    // The others stay until the admin refreshes the list: then it holds what the filter matches.
    await userEvent.click(screen.getByRole('button', { name: '刷新列表' }));
    await waitFor(() => expect(titles()).toEqual(['加密的合同']));
  });

  it('asks less and less often while a conversion lasts, and not while the tab is hidden', async () => {
    fakePolling();
    const { fetchMock } = renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      backend: { 'GET /api/v1/document/list': documentList(doc(1, '年度报告', { status: 1, pages: 0 })) },
    });
    expect(await screen.findByText('转换中')).toBeTruthy();
    const listed = () => requests(fetchMock, 'GET', '/api/v1/document/list').length;
    await expectConversionPolling(listed);
    expect(screen.getByText('转换中')).toBeTruthy();
  });

  it('recovers documents from the recycle bin and empties it after confirming', async () => {
    const { fetchMock } = renderApp('/admin/document/recycle', {
      user: admin,
      permissions: [perm(1, 'RecycleAPI', 'ListRecycleDocument')],
      backend: {
        'GET /api/v1/document/recycle': {
          status: 200,
          body: {
            total: 1,
            document: [doc(3, '删掉的文档', { deleted_username: 'admin', deleted_at: '2026-11-20T08:00:00Z' })],
          },
        },
        'PUT /api/v1/document/recycle': { status: 200, body: {} },
        'DELETE /api/v1/document/recycle/all': { status: 200, body: {} },
      },
    });
    await screen.findByText('删掉的文档');
    await userEvent.click(screen.getByRole('button', { name: '恢复“删掉的文档”' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '确定' }));
    await toasted('已恢复');
    expect(bodyOf(requests(fetchMock, 'PUT', '/api/v1/document/recycle')[0])).toEqual({ id: [3] });
    await userEvent.click(screen.getByRole('button', { name: '清空回收站' }));
    expect(
      within(screen.getByRole('dialog')).getByText('确定彻底删除回收站中的全部文档吗？此操作不可恢复。'),
    ).toBeTruthy();
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: '清空' }));
    await toasted('回收站已清空');
    expect(requests(fetchMock, 'DELETE', '/api/v1/document/recycle/all')).toHaveLength(1);
  });

  it('says once, not twice, that deleting from the recycle bin cannot be undone', async () => {
    renderApp('/admin/document/recycle', {
      user: admin,
      permissions: [perm(1, 'RecycleAPI', 'ListRecycleDocument'), perm(2, 'RecycleAPI', 'DeleteRecycleDocument')],
      backend: {
        'GET /api/v1/document/recycle': {
          status: 200,
          body: { total: 1, document: [doc(3, '删掉的文档', { deleted_username: 'admin' })] },
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /删除“删掉的文档”/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('确定删除文档“删掉的文档”吗？此操作不可恢复。')).toBeTruthy();
    expect(dialog.textContent?.match(/(不可|无法)恢复/g)).toHaveLength(1);
    expect(within(dialog).getByText('文档文件在没有其他文档使用时一并删除。')).toBeTruthy();
  });

  it('lists search records and attachments', async () => {
    const records = renderApp('/admin/document/searchrecord', {
      user: admin,
      permissions: [perm(1, 'SearchRecordAPI', 'ListSearchRecord')],
      backend: {
        'GET /api/v1/searchrecord/list': {
          status: 200,
          body: {
            total: 1,
            search_record: [{ id: 1, keywords: '麒麟', total: 3, spend_time: 0.0123, ip: '127.0.0.1' }],
          },
        },
      },
    });
    expect(await screen.findByText('麒麟')).toBeTruthy();
    expect(screen.getByText('0.012 秒')).toBeTruthy();
    expect(screen.getByText('游客')).toBeTruthy();
    records.unmount();
    renderApp('/admin/attachment', {
      user: admin,
      permissions: [perm(1, 'AttachmentAPI', 'ListAttachment')],
      backend: {
        'GET /api/v1/attachment/list': {
          status: 200,
          body: {
            total: 1,
            attachment: [
              { id: 5, name: '年度报告.pdf', type: 2, size: 1536, hash: 'f'.repeat(32), username: 'amy', enable: true },
            ],
          },
        },
      },
    });
    expect(await screen.findByText('年度报告.pdf')).toBeTruthy();
    expect(screen.getByText('文档')).toBeTruthy();
    expect(screen.getByText('1.5 KB')).toBeTruthy();
    expect(screen.getByText('f'.repeat(32))).toBeTruthy();
  });

  it('lists on the dashboard what the site still lacks, each with a link to fix it, and nothing once all is done', async () => {
    const backend = (missing: string[]) => ({
      'GET /api/v1/stats': { status: 200, body: {} },
      'GET /api/v1/envs': { status: 200, body: { envs: [] } },
      'GET /api/v1/setup/checklist': { status: 200, body: missing.length ? { missing } : {} },
    });
    renderApp('/admin/dashboard', {
      user: admin,
      backend: backend(['category', 'domain', 'home_title', 'admin_password']),
    });
    const checklist = await screen.findByRole('region', { name: '建站清单' });
    expect(await within(checklist).findByText('还没有文档分类')).toBeTruthy();
    expect(within(checklist).getByRole('link', { name: '添加文档分类' }).getAttribute('href')).toBe(
      '/admin/document/category',
    );
    expect(within(checklist).getByRole('link', { name: '填写网站域名' }).getAttribute('href')).toBe(
      '/admin/config/system',
    );
    expect(within(checklist).getByText('首页标题和网站描述仍是默认的“MOREDOC · 魔豆文库”')).toBeTruthy();
    expect(within(checklist).getByRole('link', { name: '修改首页标题和网站描述' }).getAttribute('href')).toBe(
      '/admin/config/system',
    );
    expect(within(checklist).getByRole('link', { name: '修改密码' }).getAttribute('href')).toBe(
      '/member/profile#password',
    );
    expect(within(checklist).queryByText('邮件服务未配置')).toBeNull();
    cleanup();
    const { fetchMock } = renderApp('/admin/dashboard', { user: admin, backend: backend([]) });
    expect(await screen.findByRole('region', { name: '文档转换组件' })).toBeTruthy();
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/v1/setup/checklist'))).toHaveLength(1),
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: '建站清单' })).toBeNull());
  });

  it('says on the dashboard that the site is closed, with the way to open it, and nothing while it is open', async () => {
    const backend = {
      'GET /api/v1/stats': { status: 200, body: {} },
      'GET /api/v1/envs': { status: 200, body: { envs: [] } },
      'GET /api/v1/setup/checklist': { status: 200, body: {} },
    };
    renderApp('/admin/dashboard', {
      user: admin,
      permissions: adminPermissions,
      backend,
      settings: { ...settings, security: { is_close: true } },
    });
    const notice = (await screen.findByText(/网站已关闭：访客和普通会员只能看到闭站说明/)).closest(
      'div',
    ) as HTMLElement;
    expect(within(notice).getByRole('link', { name: '前往安全配置开放网站' }).getAttribute('href')).toBe(
      '/admin/config/security',
    );
    cleanup();
    renderApp('/admin/dashboard', { user: admin, permissions: adminPermissions, backend });
    expect(await screen.findByRole('region', { name: '文档转换组件' })).toBeTruthy();
    expect(screen.queryByText(/网站已关闭/)).toBeNull();
  });

  it('shows the converters of this install on the dashboard', async () => {
    renderApp('/admin/dashboard', {
      user: admin,
      backend: {
        'GET /api/v1/stats': { status: 200, body: { document_count: 2 } },
        'GET /api/v1/envs': {
          status: 200,
          body: {
            envs: [
              { name: 'MuPDF', is_installed: true, is_required: true, version: '1.28.1' },
              { name: 'Calibre', is_installed: false, error: '未找到 ebook-convert' },
            ],
          },
        },
      },
    });
    const panel = await screen.findByRole('region', { name: '文档转换组件' });
    expect(await within(panel).findByText('1.28.1')).toBeTruthy();
    expect(within(panel).getByText('已安装')).toBeTruthy();
    expect(within(panel).getByText('未找到 ebook-convert')).toBeTruthy();
  });

  it('says why a category whose 文档数 is 0 was not deleted, and that it stays', async () => {
    // 文档数 counts only what visitors can list: 待整理 holds a document in review, and the
    // server refuses (docs/api.md §3), as it does on a real backend (navigation-category.test.ts).
    const refusal =
      '分类“待整理”下还有 1 篇文档（其中 1 篇未公开，不计入文档数），不能删除；请先把它们移到其他分类或删除后再试';
    const { fetchMock } = renderApp('/admin/document/category', {
      user: admin,
      permissions: [perm(1, 'CategoryAPI', 'ListCategory'), perm(2, 'CategoryAPI', 'DeleteCategory')],
      backend: {
        'GET /api/v1/category/list': {
          status: 200,
          body: {
            category: [
              { id: 7, title: '教育资料', enable: true, doc_count: 2 },
              { id: 8, title: '待整理', enable: true },
            ],
          },
        },
        'DELETE /api/v1/category': { status: 400, body: { code: 9, message: refusal, error: refusal } },
      },
    });
    // A category visitors see documents in cannot be deleted from here at all: a tap on 删除
    // (a phone shows no title) says why, and asks nothing.
    const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
    await screen.findByText('待整理');
    const blocked = within(row('教育资料')).getByRole('button', { name: '删除“教育资料”' });
    expect(blocked.getAttribute('aria-description')).toBe('分类下还有文档，不能删除');
    await userEvent.click(blocked);
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '不能删除分类')?.description).toBe('分类下还有文档，不能删除'),
    );
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(within(row('待整理')).getByRole('button', { name: '删除“待整理”' }));
    const dialog = screen.getByRole('dialog');
    // The question does not promise that a category with contents is silently kept.
    expect(within(dialog).getByText(/分类或下级分类中还有文档（包括未公开的）时不能删除/)).toBeTruthy();
    expect(within(dialog).queryByText(/会被保留/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '删除失败')?.description).toBe(refusal));
    expect(toasts.value.map((t) => t.title)).not.toContain('删除成功');
    expect(queryOf(requests(fetchMock, 'DELETE', '/api/v1/category')[0]).getAll('id')).toEqual(['8']);
    // The dialog stays for another try or 取消; the row is still listed.
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(row('待整理')).toBeTruthy();
  });
});

describe('admin document categories', () => {
  it('names a new title already taken beside it before sending the batch the server would refuse whole', async () => {
    const { fetchMock } = renderApp('/admin/document/category', {
      user: admin,
      permissions: [perm(1, 'CategoryAPI', 'ListCategory'), perm(2, 'CategoryAPI', 'CreateCategory')],
      backend: {
        'GET /api/v1/category/list': {
          status: 200,
          body: {
            category: [
              { id: 7, title: '技术文档', enable: true, doc_count: 2 },
              { id: 8, title: '数据库', parent_id: 7, enable: true },
            ],
          },
        },
        'POST /api/v1/category': { status: 200, body: {} },
      },
    });
    await screen.findByText('技术文档');
    await userEvent.click(screen.getByRole('button', { name: '新建分类' }));
    const form = await screen.findByRole('form', { name: '新建分类' });
    const titles = within(form).getByLabelText('分类名称');
    await userEvent.type(titles, '编程语言{Enter}技术文档{Enter}数据库');
    await userEvent.click(screen.getByRole('button', { name: '创建' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('同级已有分类“技术文档”，请删去这一行');
    expect(requests(fetchMock, 'POST', '/api/v1/category')).toHaveLength(0);
    expect((titles as HTMLTextAreaElement).value).toBe('编程语言\n技术文档\n数据库');

    // 数据库 is taken under 技术文档 only: at the top level it is new.
    await userEvent.clear(titles);
    await userEvent.type(titles, '编程语言{Enter}数据库');
    await userEvent.click(screen.getByRole('button', { name: '创建' }));
    await toasted('创建成功');
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/category')[0])).toMatchObject({
      parent_id: 0,
      title: '编程语言\n数据库',
    });
  });
});

describe('admin document filters on a large site', () => {
  it('narrows the category filter among hundreds of categories to those whose name holds what is typed', async () => {
    // 10 top categories, 4 below each, 6 below each of those: 290 choices in the filter.
    const categories = Array.from({ length: 10 }, (_, t) => [
      { id: 1000 + t, title: `一级分类${t}`, type: 0, enable: true, parent_id: 0 },
      ...Array.from({ length: 4 }, (_, m) => [
        { id: 2000 + t * 10 + m, title: `二级分类${t}-${m}`, type: 0, enable: true, parent_id: 1000 + t },
        ...Array.from({ length: 6 }, (_, l) => ({
          id: 3000 + t * 100 + m * 10 + l,
          title: `三级分类${t}-${m}-${l}`,
          type: 0,
          enable: true,
          parent_id: 2000 + t * 10 + m,
        })),
      ]).flat(),
    ]).flat();
    renderApp('/admin/document/list', {
      user: admin,
      permissions: [perm(1, 'DocumentAPI', 'ListDocument')],
      categories,
      settings: { system: { sitename: '测试文库' }, language: [{ id: 1, language: '中文（简体）', code: 'zh-CN' }] },
      backend: { 'GET /api/v1/document/list': documentList(doc(1, '年度报告')) },
    });
    await screen.findByText('年度报告');
    const filter = document.getElementById('admin-document-filter-category') as HTMLElement;
    await userEvent.click(filter);
    await userEvent.keyboard('分类7-2-');
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent?.trim())).toEqual(
        Array.from({ length: 6 }, (_, l) => `三级分类7-2-${l}`),
      ),
    );
  });
});
