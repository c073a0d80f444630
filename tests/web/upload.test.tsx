// The member's upload (/upload) in the real route tree: the upload right asked of the
// server, files checked before they are sent, one progress bar per upload (a scripted
// XMLHttpRequest), a refused or failed file leaving the others going, the details checked
// before publishing, and the conversion status of what was published.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Document } from '../../shared/types/document';
import { cleanName } from '../../shared/validation';
import { api, UPLOAD_ANSWER_MS, UPLOAD_STALL_MS } from '../../web/src/api/client';
import { CONVERSION_POLL } from '../../web/src/features/document/conversion';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { fakePolling, nextPoll } from './polling';
import { admin, holdCalls, member, renderApp, settings, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

/** An upload request the test answers: progress events, then a status and a body. */
class ScriptedUpload {
  static sent: ScriptedUpload[] = [];
  method = '';
  url = '';
  body: FormData | undefined;
  status = 0;
  statusText = '';
  responseText = '';
  readonly headers: Record<string, string> = {};
  responseHeaders: Record<string, string> = {};
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null; onload: (() => void) | null } = {
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onreadystatechange: (() => void) | null = null;
  readyState = 1;
  aborted = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    ScriptedUpload.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  get fileName() {
    return (this.body?.get('file') as File | null)?.name;
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent));
  }
  /** The whole body sent, as the browser tells it: its last progress, then the upload's load. */
  allSent(total: number) {
    this.progress(total, total);
    act(() => this.upload.onload?.());
  }
  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  /** A page that is not the API's (a proxy's own), with the status's English reason. */
  answerPage(status: number, statusText: string, html: string) {
    this.status = status;
    this.statusText = statusText;
    this.responseText = html;
    act(() => this.onload?.());
  }
  /** Steps to `state`, telling it as the browser does. */
  private step(state: number) {
    this.readyState = state;
    this.onreadystatechange?.();
  }
  /** The connection lost before any answer: the browser goes straight to DONE, then says error. */
  cutOff() {
    act(() => {
      this.step(4);
      this.onerror?.();
    });
  }
  /**
   * The answer's status and headers came, then the connection closed mid-body: as in Chromium,
   * HEADERS_RECEIVED and LOADING, then DONE with status 0 by the error event.
   */
  brokenOffAfterHeaders() {
    act(() => {
      this.step(2);
      this.step(3);
      this.step(4);
      this.onerror?.();
    });
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.responseHeaders = headers;
    act(() => this.onload?.());
  }
}

const uploadOf = async (name: string) => {
  await waitFor(() => expect(ScriptedUpload.sent.some((u) => u.fileName === name)).toBe(true));
  return ScriptedUpload.sent.find((u) => u.fileName === name) as ScriptedUpload;
};

const file = (name: string, bytes = 1024) =>
  new File([new Uint8Array(bytes)], name, { type: 'application/octet-stream' });

function renderUpload(backend: Backend, system: NonNullable<typeof settings.system> = {}) {
  ScriptedUpload.sent = [];
  const view = renderApp('/upload', {
    user: member,
    settings: {
      ...settings,
      system: { ...settings.system, ...system },
      security: { ...settings.security, max_document_size: 1 },
    },
    backend: { 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} }, ...backend },
  });
  api.configure({ createXhr: () => new ScriptedUpload() as unknown as XMLHttpRequest });
  return view;
}

/** Uploads `name` (the server answers upload `id`), files it under category 7 and presses 发布. */
async function publishOne(name: string, id: number) {
  await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file(name)]);
  (await uploadOf(name)).answer(200, { code: 200, data: { id } });
  await within(await screen.findByRole('listitem', { name })).findByText('已上传，待发布');
  await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
  await userEvent.click(screen.getByRole('button', { name: /发布/ }));
}

describe('member upload', () => {
  it('says why a member may not upload', async () => {
    renderApp('/upload', {
      user: member,
      backend: {
        'GET /api/v1/user/caniuploaddocument': { status: 403, body: { code: 7, message: '您没有上传文档的权限' } },
      },
    });
    expect(await screen.findByText('暂时不能上传文档')).toBeTruthy();
    expect(screen.getByText('您没有上传文档的权限')).toBeTruthy();
  });

  it('says on a site without document categories that none can be chosen yet, before any file is picked', async () => {
    renderApp('/upload', {
      user: member,
      categories: [],
      backend: { 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
    });
    expect(await screen.findByText('还没有文档分类')).toBeTruthy();
    expect(screen.getByText('管理员添加文档分类后才能上传文档，请稍后再来。')).toBeTruthy();
    expect(screen.queryByTestId('document-files')).toBeNull();
    expect(screen.queryByRole('link', { name: '添加文档分类' })).toBeNull();
    cleanup();
    // Whoever may add one is sent there.
    renderApp('/upload', {
      user: admin,
      permissions: [{ id: 1, method: 'GRPC', path: '/api.v1.CategoryAPI/ListCategory', title: '查看分类列表' }],
      categories: [],
      backend: { 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
    });
    expect(await screen.findByText('每篇文档都要选择分类，请先添加文档分类再上传。')).toBeTruthy();
    expect(screen.getByRole('link', { name: '添加文档分类' }).getAttribute('href')).toBe('/admin/document/category');
  });

  it('uploads several files with a progress bar each; refused and failed files say why and leave the others going', async () => {
    renderUpload({});
    const input = (await screen.findByTestId('document-files')) as HTMLInputElement;
    await userEvent.upload(
      input,
      [file('年度报告.pdf'), file('程序.exe'), file('太大了.docx', 2 * 1024 * 1024), file('讲义.pptx')],
      {
        applyAccept: false,
      },
    );
    const items = screen.getByRole('region', { name: '文件列表' });
    expect(within(within(items).getByRole('listitem', { name: '程序.exe' })).getByRole('alert').textContent).toBe(
      '不支持的文档类型（.exe）',
    );
    expect(within(within(items).getByRole('listitem', { name: '太大了.docx' })).getByRole('alert').textContent).toBe(
      '文件大小超出限制（最大 1 MB，超出 1 MB）',
    );

    const report = await uploadOf('年度报告.pdf');
    expect([report.method, report.url]).toEqual(['POST', '/api/v1/upload/document']);
    report.progress(512, 1024);
    const bar = screen.getByRole('progressbar', { name: '年度报告.pdf 上传进度' }) as HTMLProgressElement;
    expect(bar.value).toBe(50);
    expect(
      within(within(items).getByRole('listitem', { name: '年度报告.pdf' })).getByText('已上传 512 B / 1 KB（50%）'),
    ).toBeTruthy();
    const lecture = await uploadOf('讲义.pptx');
    lecture.answer(400, { code: 400, message: '文件已被标记为非法文件，禁止上传' });
    expect(
      await within(within(items).getByRole('listitem', { name: '讲义.pptx' })).findByText(
        '文件已被标记为非法文件，禁止上传',
      ),
    ).toBeTruthy();
    report.answer(200, { code: 200, message: 'ok', data: { id: 11 } });
    const done = within(items).getByRole('listitem', { name: '年度报告.pdf' });
    expect(await within(done).findByText('已上传，待发布')).toBeTruthy();
    expect((within(done).getByLabelText('标题') as HTMLInputElement).value).toBe('年度报告');
    // Only the refused and failed files were not sent.
    expect(ScriptedUpload.sent.map((u) => u.fileName)).toEqual(['年度报告.pdf', '讲义.pptx']);
  });

  it("says why the member's session ended when an upload's answer tells it", async () => {
    renderUpload({});
    const input = (await screen.findByTestId('document-files')) as HTMLInputElement;
    await userEvent.upload(input, [file('年度报告.pdf')], { applyAccept: false });
    (await uploadOf('年度报告.pdf')).answer(
      401,
      { code: 401, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' },
      { 'x-session-end': 'password-changed' },
    );
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    expect(within(dialog).getByText(/^您的密码已在其他地方修改，请重新登录。/)).toBeTruthy();
  });

  it('refuses a file picked twice, in one pick or again later, so it never becomes two documents', async () => {
    renderUpload({});
    const input = (await screen.findByTestId('document-files')) as HTMLInputElement;
    const notes = file('笔记.pdf');
    await userEvent.upload(input, [notes, notes], { applyAccept: false });
    const items = screen.getByRole('region', { name: '文件列表' });
    const rows = () => within(items).getAllByRole('listitem', { name: '笔记.pdf' });
    expect(rows()).toHaveLength(2);
    expect(within(rows()[1]!).getByRole('alert').textContent).toBe('已在列表中，不会重复上传');
    (await uploadOf('笔记.pdf')).answer(200, { code: 200, message: 'ok', data: { id: 31 } });
    expect(await within(rows()[0]!).findByText('已上传，待发布')).toBeTruthy();

    // Picked again after its upload: refused too; a file of the same name but other bytes is not.
    const other = new File([new Uint8Array(2048)], '笔记.pdf', { lastModified: notes.lastModified });
    await userEvent.upload(input, [notes, other], { applyAccept: false });
    expect(within(rows()[2]!).getByRole('alert').textContent).toBe('已在列表中，不会重复上传');
    await waitFor(() => expect(ScriptedUpload.sent).toHaveLength(2));
    expect(ScriptedUpload.sent.map((u) => (u.body?.get('file') as File).size)).toEqual([1024, 2048]);
    expect(within(rows()[3]!).queryByText('已在列表中，不会重复上传')).toBeNull();
  });

  it('refuses at its upload a file whose bytes the batch already holds under another name, and publishes the others', async () => {
    let created: unknown;
    renderUpload({
      'POST /api/v1/document': (_url, init) => {
        created = JSON.parse(String(init.body));
        return { status: 200, body: {} };
      },
      'GET /api/v1/document/list': { status: 200, body: { total: 0 } },
    });
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('讲义（副本）.pdf'),
    ]);
    (await uploadOf('讲义.pdf')).answer(200, { code: 200, message: 'ok', data: { id: 41, hash: 'a'.repeat(32) } });
    (await uploadOf('讲义（副本）.pdf')).answer(200, {
      code: 200,
      message: 'ok',
      data: { id: 42, hash: 'a'.repeat(32) },
    });
    const copy = screen.getByRole('listitem', { name: '讲义（副本）.pdf' });
    expect(await within(copy).findByText('内容重复')).toBeTruthy();
    expect(within(copy).getByRole('alert').textContent).toBe('与“讲义.pdf”的内容相同，不会重复发布');
    expect(within(copy).queryByLabelText('价格')).toBeNull();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
    await userEvent.click(screen.getByRole('button', { name: '发布（1）' }));
    await waitFor(() =>
      expect(created).toEqual({
        category_id: [7],
        document: [{ title: '讲义', attachment_id: 41, price: 0, description: '' }],
      }),
    );
    expect(within(copy).getByText('内容重复')).toBeTruthy();
  });

  it('marks the copy picked later as 内容重复 when it finishes uploading first', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('讲义（副本）.pdf'),
    ]);
    const copyUpload = await uploadOf('讲义（副本）.pdf');
    const originalUpload = await uploadOf('讲义.pdf');
    copyUpload.answer(200, { code: 200, message: 'ok', data: { id: 62, hash: 'd'.repeat(32) } });
    const copy = screen.getByRole('listitem', { name: '讲义（副本）.pdf' });
    expect(await within(copy).findByText('已上传，待发布')).toBeTruthy();
    originalUpload.answer(200, { code: 200, message: 'ok', data: { id: 61, hash: 'd'.repeat(32) } });
    const original = screen.getByRole('listitem', { name: '讲义.pdf' });
    expect(await within(original).findByText('已上传，待发布')).toBeTruthy();
    expect(within(copy).getByText('内容重复')).toBeTruthy();
    expect(within(copy).getByRole('alert').textContent).toBe('与“讲义.pdf”的内容相同，不会重复发布');
    expect(within(copy).queryByLabelText('价格')).toBeNull();
    expect(screen.getByRole('button', { name: '发布（1）' })).toBeTruthy();
  });

  it('keeps the title and description typed into a copy that steps aside as 内容重复 for the row that stays', async () => {
    let created: unknown;
    renderUpload({
      'POST /api/v1/document': (_url, init) => {
        created = JSON.parse(String(init.body));
        return { status: 200, body: {} };
      },
      'GET /api/v1/document/list': { status: 200, body: { total: 0 } },
    });
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('讲义（副本）.pdf'),
    ]);
    const copyUpload = await uploadOf('讲义（副本）.pdf');
    const originalUpload = await uploadOf('讲义.pdf');
    copyUpload.answer(200, { code: 200, message: 'ok', data: { id: 72, hash: 'f'.repeat(32) } });
    const copy = screen.getByRole('listitem', { name: '讲义（副本）.pdf' });
    expect(await within(copy).findByText('已上传，待发布')).toBeTruthy();
    const title = within(copy).getByLabelText('标题');
    await userEvent.clear(title);
    await userEvent.type(title, '高等数学期末讲义');
    await userEvent.type(within(copy).getByLabelText('简介'), '第一章到第五章');
    originalUpload.answer(200, { code: 200, message: 'ok', data: { id: 71, hash: 'f'.repeat(32) } });
    const original = screen.getByRole('listitem', { name: '讲义.pdf' });
    expect(await within(original).findByText('已上传，待发布')).toBeTruthy();
    expect(within(copy).getByText('内容重复')).toBeTruthy();
    expect(within(original).getByLabelText('标题')).toHaveProperty('value', '高等数学期末讲义');
    expect(within(original).getByLabelText('简介')).toHaveProperty('value', '第一章到第五章');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
    await userEvent.click(screen.getByRole('button', { name: '发布（1）' }));
    await waitFor(() =>
      expect(created).toEqual({
        category_id: [7],
        document: [{ title: '高等数学期末讲义', attachment_id: 71, price: 0, description: '第一章到第五章' }],
      }),
    );
  });

  it('hands the title typed into a copy while it uploaded to the row it turns out a copy of', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('讲义（副本）.pdf'),
    ]);
    const originalUpload = await uploadOf('讲义.pdf');
    const copyUpload = await uploadOf('讲义（副本）.pdf');
    originalUpload.answer(200, { code: 200, message: 'ok', data: { id: 91, hash: '9'.repeat(32) } });
    const original = screen.getByRole('listitem', { name: '讲义.pdf' });
    expect(await within(original).findByText('已上传，待发布')).toBeTruthy();
    const copy = screen.getByRole('listitem', { name: '讲义（副本）.pdf' });
    const title = within(copy).getByLabelText('标题');
    await userEvent.clear(title);
    await userEvent.type(title, '线性代数讲义');
    copyUpload.answer(200, { code: 200, message: 'ok', data: { id: 92, hash: '9'.repeat(32) } });
    expect(await within(copy).findByText('内容重复')).toBeTruthy();
    expect(within(original).getByLabelText('标题')).toHaveProperty('value', '线性代数讲义');
  });

  it('refuses at its upload a file the member already made a document of, naming it, and publishes the others', async () => {
    let created: unknown;
    renderUpload({
      'POST /api/v1/document': (_url, init) => {
        created = JSON.parse(String(init.body));
        return { status: 200, body: {} };
      },
      'GET /api/v1/document/list': { status: 200, body: { total: 0 } },
    });
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('笔记.pdf'),
      file('草稿.pdf'),
    ]);
    // The server knows the first file's bytes: the member published them as 期末讲义 before.
    (await uploadOf('讲义.pdf')).answer(200, {
      code: 200,
      message: 'ok',
      data: { id: 51, hash: 'b'.repeat(32), document: { id: 9, title: '期末讲义', status: 2 } },
    });
    (await uploadOf('笔记.pdf')).answer(200, { code: 200, message: 'ok', data: { id: 52, hash: 'c'.repeat(32) } });
    const again = screen.getByRole('listitem', { name: '讲义.pdf' });
    expect(await within(again).findByText('内容重复')).toBeTruthy();
    expect(within(again).getByRole('alert').textContent).toBe('您已上传过内容相同的文档《期末讲义》，不会重复发布');
    expect(within(again).queryByLabelText('价格')).toBeNull();
    // The title opens the document (converted: its page) in a new tab, the batch left as it is.
    const link = within(again).getByRole('link', { name: '期末讲义' });
    expect(link.getAttribute('href')).toBe('/library/1/9');
    expect(link.getAttribute('target')).toBe('_blank');
    // One not public yet (its conversion failed) opens 我的文档, where its state is.
    (await uploadOf('草稿.pdf')).answer(200, {
      code: 200,
      message: 'ok',
      data: { id: 53, hash: 'e'.repeat(32), document: { id: 10, title: '旧草稿', status: 3 } },
    });
    const draft = screen.getByRole('listitem', { name: '草稿.pdf' });
    const draftLink = await within(draft).findByRole('link', { name: '旧草稿' });
    expect(draftLink.getAttribute('href')).toBe('/member/document');
    expect(draftLink.getAttribute('target')).toBe('_blank');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
    await userEvent.click(await screen.findByRole('button', { name: '发布（1）' }));
    await waitFor(() =>
      expect(created).toEqual({
        category_id: [7],
        document: [{ title: '笔记', attachment_id: 52, price: 0, description: '' }],
      }),
    );
  });

  it('marks a file 内容重复 when 发布 is refused as a document already there (409), out of the next 发布', async () => {
    const sent: number[] = [];
    renderUpload({
      'POST /api/v1/document': (_url, init) => {
        const id = (JSON.parse(String(init.body)) as { document: { attachment_id: number }[] }).document[0]!
          .attachment_id;
        sent.push(id);
        return id === 61
          ? { status: 409, body: { code: 6, message: '文档已存在：您已上传过内容相同的文档' } }
          : { status: 500, body: { code: 13, message: '服务器内部错误' } };
      },
      'GET /api/v1/document/list': { status: 200, body: { total: 0 } },
    });
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('笔记.pdf'),
    ]);
    (await uploadOf('讲义.pdf')).answer(200, { code: 200, data: { id: 61 } });
    (await uploadOf('笔记.pdf')).answer(200, { code: 200, data: { id: 62 } });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
    await userEvent.click(await screen.findByRole('button', { name: '发布（2）' }));
    const again = screen.getByRole('listitem', { name: '讲义.pdf' });
    expect(await within(again).findByText('内容重复')).toBeTruthy();
    expect(within(again).getByRole('alert').textContent).toBe('文档已存在：您已上传过内容相同的文档');
    expect(within(again).queryByLabelText('价格')).toBeNull();
    // Any other refusal stays 发布失败, offered again by 发布; the duplicate is not.
    const other = screen.getByRole('listitem', { name: '笔记.pdf' });
    expect(await within(other).findByText('发布失败')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: '发布（1）' }));
    await waitFor(() => expect(sent).toEqual([61, 62, 62]));
  });

  it("says before any file is chosen what publishing pays, in the site's credits, and nothing when it pays nothing", async () => {
    const screenWith = async (reward: { upload_document_credits?: number; upload_document_limit?: number }) => {
      const view = renderApp('/upload', {
        user: member,
        settings: { ...settings, system: { ...settings.system, credit_name: '金币', ...reward } },
        backend: { 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
      });
      const note = (await screen.findByRole('button', { name: '选择文件' })).closest('.app-upload__drop')!.textContent;
      view.unmount();
      return note;
    };
    expect(await screenWith({ upload_document_credits: 5, upload_document_limit: 3 })).toContain(
      '每天发布的前 3 篇文档每篇奖励 5 金币，发布后立即到账。',
    );
    expect(await screenWith({ upload_document_credits: 2, upload_document_limit: 1 })).toContain(
      '每天发布的第一篇文档奖励 2 金币，发布后立即到账。',
    );
    // GetSettings leaves both out when publishing pays nothing.
    expect(await screenWith({})).not.toContain('奖励');
  });

  it("says how many of today's rewards are left: while asking, when the asking fails, and again after 发布", async () => {
    let left = 1;
    let failing = true;
    const { fetchMock } = renderUpload(
      {
        'GET /api/v1/document/uploadreward': () =>
          failing ? { status: 503, body: { code: 14, message: '服务暂时不可用' } } : { status: 200, body: { left } },
        'POST /api/v1/document': () => {
          left = 0;
          return { status: 200, body: {} };
        },
        'GET /api/v1/document/list': { status: 200, body: { total: 0 } },
      },
      { upload_document_credits: 5, upload_document_limit: 3 },
    );
    const release = holdCalls(fetchMock, (url) => url.pathname === '/api/v1/document/uploadreward');
    expect(await screen.findByText('正在查询今日剩余的奖励次数…')).toBeTruthy();
    release();
    const failure = await screen.findByText(/今日剩余的奖励次数暂时无法查询/);
    expect(failure.textContent).toBe('今日剩余的奖励次数暂时无法查询（服务暂时不可用）重试');
    failing = false;
    await userEvent.click(within(failure).getByRole('button', { name: '重试' }));
    expect(await screen.findByText('今日还可获得 1 次上传奖励。')).toBeTruthy();

    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('讲义.pdf')]);
    (await uploadOf('讲义.pdf')).answer(200, { code: 200, message: 'ok', data: { id: 41 } });
    await screen.findByText('已上传，待发布');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
    await userEvent.click(screen.getByRole('button', { name: '发布（1）' }));
    // Asked again after 发布: the day's rewards are used up.
    expect(await screen.findByText('今日的上传奖励已用完，明天发布的文档可再获得奖励。')).toBeTruthy();
    expect(screen.queryByText('今日还可获得 1 次上传奖励。')).toBeNull();
  });

  it('does not ask for the rewards left while publishing pays nothing', async () => {
    const { fetchMock } = renderUpload({});
    await screen.findByRole('button', { name: '选择文件' });
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/v1/document/uploadreward'))).toBe(false);
    expect(screen.queryByText(/上传奖励/)).toBeNull();
  });

  it("names the site's credits as the unit of each price and of the batch's price", async () => {
    ScriptedUpload.sent = [];
    renderApp('/upload', {
      user: member,
      settings: { ...settings, system: { ...settings.system, credit_name: '魔豆' } },
      backend: { 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
    });
    api.configure({ createXhr: () => new ScriptedUpload() as unknown as XMLHttpRequest });
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('讲义.pdf')]);
    const item = screen.getByRole('listitem', { name: '讲义.pdf' });
    const unitOf = (input: HTMLElement) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join('');
    expect(unitOf(within(item).getByLabelText('价格'))).toBe('魔豆');
    expect(unitOf(screen.getByLabelText('价格', { selector: '#upload-batch-price' }))).toBe('魔豆');
  });

  it('marks a wrong 统一设置 price on 统一设置 itself and gives the rows only a price they accept', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('课件.pdf'),
    ]);
    const rows = ['讲义.pdf', '课件.pdf'].map((name) => screen.getByRole('listitem', { name }));
    const batch = screen.getByRole('group', { name: '统一设置' });
    const batchPrice = within(batch).getByLabelText('价格');
    await userEvent.clear(batchPrice);
    await userEvent.type(batchPrice, '5');
    await userEvent.type(batchPrice, '-3');

    expect(within(batch).getByRole('alert').textContent).toBe('价格必须是不小于 0 的整数');
    expect(batchPrice.getAttribute('aria-invalid')).toBe('true');
    expect(batchPrice.getAttribute('aria-describedby')).toContain('upload-batch-price-error');
    for (const row of rows) {
      expect((within(row).getByLabelText('价格') as HTMLInputElement).value).toBe('5');
      expect(within(row).queryByText('价格必须是不小于 0 的整数')).toBeNull();
    }
    // A file picked now takes the price 统一设置 last gave, not the wrong one.
    await userEvent.upload(screen.getByTestId('document-files') as HTMLInputElement, [file('试卷.pdf')]);
    const later = screen.getByRole('listitem', { name: '试卷.pdf' });
    expect((within(later).getByLabelText('价格') as HTMLInputElement).value).toBe('5');

    // Emptied to type a new price: nothing marked yet, and the rows keep theirs.
    await userEvent.clear(batchPrice);
    expect(within(batch).queryByRole('alert')).toBeNull();
    expect((within(later).getByLabelText('价格') as HTMLInputElement).value).toBe('5');
    await userEvent.type(batchPrice, '12');
    expect(within(batch).queryByRole('alert')).toBeNull();
    expect(batchPrice.getAttribute('aria-invalid')).toBeNull();
    for (const row of [...rows, later])
      expect((within(row).getByLabelText('价格') as HTMLInputElement).value).toBe('12');
  });

  it('offers 重试 for an upload cut off or refused for a while, in Chinese, and not for a file the server refused', async () => {
    renderUpload({});
    const input = (await screen.findByTestId('document-files')) as HTMLInputElement;
    await userEvent.upload(input, [file('断线.pdf'), file('存储.pdf')], { applyAccept: false });
    const items = screen.getByRole('region', { name: '文件列表' });
    const row = (name: string) => within(items).getByRole('listitem', { name });

    // The instance that took the upload was stopped: no answer at all.
    (await uploadOf('断线.pdf')).cutOff();
    expect(await within(row('断线.pdf')).findByRole('alert')).toHaveProperty(
      'textContent',
      '上传中断：与网站的连接断开了，请检查网络后重试',
    );
    (await uploadOf('存储.pdf')).answer(503, { code: 503, message: '文件存储暂时不可用，请稍后再试' });
    expect(await within(row('存储.pdf')).findByText('文件存储暂时不可用，请稍后再试')).toBeTruthy();

    await userEvent.upload(input, [file('非法.pdf')], { applyAccept: false });
    (await uploadOf('非法.pdf')).answer(400, { code: 400, message: '文件已被标记为非法文件，禁止上传' });
    expect(await within(row('非法.pdf')).findByText('文件已被标记为非法文件，禁止上传')).toBeTruthy();
    expect(within(row('非法.pdf')).queryByRole('button', { name: /重试/ })).toBeNull();
    // Refused, as a file checked before sending is, not 上传失败 (which sending again would mend).
    expect(within(row('非法.pdf')).getByText('无法上传')).toBeTruthy();
    expect(within(row('非法.pdf')).queryByText('上传失败')).toBeNull();
    expect(within(row('存储.pdf')).getByText('上传失败')).toBeTruthy();

    // Sent again, from the start, without choosing the file again.
    await userEvent.click(within(row('断线.pdf')).getByRole('button', { name: '重试 断线.pdf' }));
    await waitFor(() => expect(ScriptedUpload.sent.filter((u) => u.fileName === '断线.pdf')).toHaveLength(2));
    ScriptedUpload.sent
      .filter((u) => u.fileName === '断线.pdf')[1]!
      .answer(200, { code: 200, message: 'ok', data: { id: 21 } });
    expect(await within(row('断线.pdf')).findByText('已上传，待发布')).toBeTruthy();
    expect(within(row('断线.pdf')).queryByRole('alert')).toBeNull();
    expect(within(row('存储.pdf')).getByRole('button', { name: '重试 存储.pdf' })).toBeTruthy();
  });

  it('says the server failed, not that the connection broke, for an upload whose answer broke off after its headers', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('半截.pdf')]);
    const row = screen.getByRole('listitem', { name: '半截.pdf' });
    const upload = await uploadOf('半截.pdf');
    upload.allSent(1024);
    upload.brokenOffAfterHeaders();
    // The file arrived; the server failed while answering, as any other call says it.
    expect(await within(row).findByRole('alert')).toHaveProperty('textContent', '服务暂时不可用，请稍后再试');
    expect(within(row).getByText('上传失败')).toBeTruthy();
    expect(within(row).getByRole('button', { name: '重试 半截.pdf' })).toBeTruthy();
  });

  it('says in Chinese that a file is too large when a proxy refuses its upload with its own 413 page', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('大文件.pdf')]);
    (await uploadOf('大文件.pdf')).answerPage(
      413,
      'Request Entity Too Large',
      '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>',
    );
    const row = within(screen.getByRole('region', { name: '文件列表' })).getByRole('listitem', { name: '大文件.pdf' });
    expect(await within(row).findByText('文件大小超出限制')).toBeTruthy();
    expect(within(row).getByText('无法上传')).toBeTruthy();
    expect(row.textContent).not.toMatch(/Too Large|413/);
  });

  it('gives up an upload that sends nothing for a minute as cut off, with 重试, not 上传中 for good', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('山区.pdf')]);
    const row = screen.getByRole('listitem', { name: '山区.pdf' });
    const stalled = await uploadOf('山区.pdf');
    stalled.progress(300, 1024);
    // Still sending, slowly: each step it makes gives it another minute.
    await act(() => vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS - 1_000));
    stalled.progress(600, 1024);
    await act(() => vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS - 1_000));
    expect(stalled.aborted).toBe(false);
    expect(within(row).getByText('上传中')).toBeTruthy();
    // Then nothing more: given up as a connection lost, and offered again.
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(stalled.aborted).toBe(true);
    expect(await within(row).findByRole('alert')).toHaveProperty(
      'textContent',
      '上传中断：与网站的连接断开了，请检查网络后重试',
    );
    expect(within(row).getByText('上传失败')).toBeTruthy();
    expect(within(row).getByRole('button', { name: '重试 山区.pdf' })).toBeTruthy();
  });

  it('waits for the answer once the whole file is sent, saying 正在处理, past the minute of a stalled upload', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('大文件.pdf')]);
    const row = screen.getByRole('listitem', { name: '大文件.pdf' });
    const upload = await uploadOf('大文件.pdf');
    upload.allSent(1024);
    expect(within(row).getByText('正在处理')).toBeTruthy();
    expect(within(row).getByRole('status').textContent).toBe('文件已全部上传，服务器正在检查和保存，请稍候');
    // The server takes its time: no byte is left to stall, so the minute without progress does not apply.
    await act(() => vi.advanceTimersByTimeAsync(UPLOAD_STALL_MS * 2));
    expect(upload.aborted).toBe(false);
    upload.answer(200, { code: 200, message: 'ok', data: { id: 81 } });
    expect(await within(row).findByText('已上传，待发布')).toBeTruthy();
  });

  it('gives up an upload sent whole whose answer never comes, after its own longer limit, with 重试', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('无回音.pdf')]);
    const row = screen.getByRole('listitem', { name: '无回音.pdf' });
    const upload = await uploadOf('无回音.pdf');
    upload.allSent(1024);
    await act(() => vi.advanceTimersByTimeAsync(UPLOAD_ANSWER_MS - 1_000));
    expect(upload.aborted).toBe(false);
    expect(within(row).getByText('正在处理')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(upload.aborted).toBe(true);
    expect(within(row).getByText('上传失败')).toBeTruthy();
    expect(within(row).getByRole('button', { name: '重试 无回音.pdf' })).toBeTruthy();
  });

  it('asks before a move to another screen drops the files uploaded but not published', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('课件.pdf')]);
    (await uploadOf('课件.pdf')).answer(200, { code: 200, data: { id: 13 } });
    await screen.findByText('已上传，待发布');

    await userEvent.click(screen.getByRole('link', { name: '首页' }));
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    expect(ask.textContent).toContain('还有 1 个文件没有发布');
    await userEvent.click(within(ask).getByRole('button', { name: '留下继续编辑' }));
    expect(screen.getByRole('listitem', { name: '课件.pdf' })).toBeTruthy();
  });

  it('asks before a move drops a file whose upload was cut off (重试 would send it), not for one the server refused', async () => {
    renderUpload({});
    await userEvent.upload(
      (await screen.findByTestId('document-files')) as HTMLInputElement,
      [file('断网.pdf'), file('违规.pdf')],
      { applyAccept: false },
    );
    const row = (name: string) => screen.getByRole('listitem', { name });
    const cut = await uploadOf('断网.pdf');
    act(() => cut.onerror?.());
    await within(row('断网.pdf')).findByRole('button', { name: '重试 断网.pdf' });
    (await uploadOf('违规.pdf')).answer(400, { code: 400, message: '文件已被标记为非法文件，禁止上传' });
    await within(row('违规.pdf')).findByText('无法上传');

    await userEvent.click(screen.getByRole('link', { name: '首页' }));
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    expect(ask.textContent).toContain('还有 1 个文件没有发布');
    await userEvent.click(within(ask).getByRole('button', { name: '留下继续编辑' }));
    expect(row('断网.pdf')).toBeTruthy();

    // The refused file alone left: nothing to lose, the move goes without asking.
    await userEvent.click(screen.getByRole('button', { name: '移除 断网.pdf' }));
    await userEvent.click(screen.getByRole('link', { name: '首页' }));
    await waitFor(() => expect(screen.queryByTestId('document-files')).toBeNull());
    expect(screen.queryByRole('alertdialog', { name: '离开此页' })).toBeNull();
  });

  it('stops the upload of a row removed, and of every file on its way when the screen is left', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('讲义.pdf'),
      file('习题.pdf'),
    ]);
    const removed = await uploadOf('讲义.pdf');
    const left = await uploadOf('习题.pdf');
    removed.progress(100, 1024);
    await userEvent.click(screen.getByRole('button', { name: '移除 讲义.pdf' }));
    expect(removed.aborted).toBe(true);
    expect(left.aborted).toBe(false);

    await userEvent.click(screen.getByRole('link', { name: '首页' }));
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    await userEvent.click(within(ask).getByRole('button', { name: '离开' }));
    await waitFor(() => expect(screen.queryByTestId('document-files')).toBeNull());
    // The screen's cleanup may run after its input left the page (a render of the next screen between).
    await waitFor(() => expect(left.aborted).toBe(true));
  });

  it('takes the title from the file name cleaned as the server stores it, and counts a title of bidi overrides as none', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('doc\u202efdp.exe.pdf'),
    ]);
    (await uploadOf('doc\u202efdp.exe.pdf')).answer(200, { code: 200, data: { id: 12 } });
    const item = await screen.findByRole('listitem', { name: 'doc\u202efdp.exe.pdf' });
    await within(item).findByText('已上传，待发布');
    expect((within(item).getByLabelText('标题') as HTMLInputElement).value).toBe('docfdp.exe');

    await userEvent.clear(within(item).getByLabelText('标题'));
    await userEvent.type(within(item).getByLabelText('标题'), '\u202e\u2066');
    await userEvent.click(screen.getByRole('button', { name: /发布/ }));
    expect(within(item).getByText('请输入文档标题')).toBeTruthy();
  });

  it('cuts a long file name to 255 characters, never inside one (an emoji is one)', async () => {
    renderUpload({});
    const name = `${'资'.repeat(254)}📚📚.pdf`;
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file(name)]);
    (await uploadOf(name)).answer(200, { code: 200, data: { id: 13 } });
    const item = await screen.findByRole('listitem', { name });
    await within(item).findByText('已上传，待发布');
    expect((within(item).getByLabelText('标题') as HTMLInputElement).value).toBe(`${'资'.repeat(254)}📚`);
  });

  it("checks each file's details before publishing, then follows the conversion of what it created", async () => {
    fakePolling();
    let created: unknown;
    let status = 1;
    const published: Document = {
      id: 5,
      title: '年度报告',
      status: 1,
      category_id: [7],
      attachment: { hash: 'a'.repeat(32) },
    };
    const { fetchMock } = renderUpload({
      'POST /api/v1/document': (_url, init) => {
        created = JSON.parse(String(init.body));
        return { status: 200, body: {} };
      },
      'GET /api/v1/document/list': () => ({
        status: 200,
        body: { total: 1, document: created ? [{ ...published, status }] : [] },
      }),
      'GET /api/v1/document': () => ({
        status: 200,
        body: { ...published, status, convert_progress: { done: 2, total: 5 } },
      }),
    });
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('年度报告.pdf')]);
    (await uploadOf('年度报告.pdf')).answer(200, { code: 200, data: { id: 11 } });
    const item = await screen.findByRole('listitem', { name: '年度报告.pdf' });
    await within(item).findByText('已上传，待发布');

    await userEvent.clear(within(item).getByLabelText('标题'));
    await userEvent.clear(within(item).getByLabelText('价格'));
    await userEvent.type(within(item).getByLabelText('价格'), '-3');
    await userEvent.click(screen.getByRole('button', { name: /发布/ }));
    expect(within(item).getByText('请输入文档标题')).toBeTruthy();
    expect(within(item).getByText('请选择文档分类')).toBeTruthy();
    expect(within(item).getByText('价格必须是不小于 0 的整数')).toBeTruthy();
    expect(
      fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/api/v1/document') && init?.method === 'POST'),
    ).toBe(false);

    await userEvent.type(within(item).getByLabelText('标题'), '年度报告');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
    await userEvent.clear(screen.getByLabelText('价格', { selector: '#upload-batch-price' }));
    await userEvent.type(screen.getByLabelText('价格', { selector: '#upload-batch-price' }), '5');
    screen.getByRole('button', { name: /发布/ }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(created).toEqual({
        category_id: [7],
        document: [{ title: '年度报告', attachment_id: 11, price: 5, description: '' }],
      }),
    );

    const statuses = await screen.findByRole('region', { name: '转换状态' });
    // 发布, disabled with nothing left to publish, gave the keyboard to 转换状态, not to <body>.
    await waitFor(() =>
      expect(document.activeElement).toBe(within(statuses).getByRole('heading', { name: '转换状态' })),
    );
    expect(await within(statuses).findByText('转换中')).toBeTruthy();
    expect(await within(statuses).findByText('已完成 2 / 5 页')).toBeTruthy();
    expect(
      (within(statuses).getByRole('progressbar', { name: '年度报告 转换进度' }) as HTMLProgressElement).value,
    ).toBe(2);
    status = 2;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await within(statuses).findByText('已转换')).toBeTruthy();
    expect(within(statuses).getByRole('link', { name: '阅读' }).getAttribute('href')).toBe('/library/7/5');
    // Converted: neither the list nor the document is asked about any more.
    const reads = () =>
      fetchMock.mock.calls.filter(
        ([url, init]) =>
          (init?.method ?? 'GET') === 'GET' &&
          new URL(String(url), 'http://localhost').pathname.startsWith('/api/v1/document'),
      ).length;
    const asked = reads();
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(reads()).toBe(asked);
  });
});

describe('a title pasted with a tab', () => {
  it('is published as the server stores it, and 转换状态 finds the document by it', async () => {
    let created: { document: { title: string }[] } | undefined;
    renderUpload({
      'POST /api/v1/document': (_url, init) => {
        created = JSON.parse(String(init.body));
        return { status: 200, body: {} };
      },
      // The server keeps a title cleaned (cleanName: a tab becomes a space).
      'GET /api/v1/document/list': () => ({
        status: 200,
        body: created
          ? {
              total: 1,
              document: [
                { id: 8, title: cleanName(created.document[0]!.title), status: 2, pages: 3, category_id: [7] },
              ],
            }
          : { total: 0, document: [] },
      }),
    });
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [file('表格.pdf')]);
    (await uploadOf('表格.pdf')).answer(200, { code: 200, data: { id: 14 } });
    const item = await screen.findByRole('listitem', { name: '表格.pdf' });
    await within(item).findByText('已上传，待发布');
    // Cells copied from a spreadsheet are pasted with a tab between them.
    await userEvent.clear(within(item).getByLabelText('标题'));
    await userEvent.paste('第一章\t概述');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '统一设置分类' }), '7');
    await userEvent.click(screen.getByRole('button', { name: /发布/ }));

    const statuses = await screen.findByRole('region', { name: '转换状态' });
    expect(await within(statuses).findByText('第一章 概述')).toBeTruthy();
    expect(within(statuses).getByRole('link', { name: '阅读' }).getAttribute('href')).toBe('/library/7/8');
    expect(within(statuses).queryByText('其余文档正在创建中…')).toBeNull();
    expect(created?.document[0]?.title).toBe('第一章 概述');
  });
});

describe('转换状态 unread', () => {
  it('says it could not be read, with 重试, rather than that the documents are still being created', async () => {
    let created = false;
    let listAnswers = 0;
    renderUpload({
      'POST /api/v1/document': () => {
        created = true;
        return { status: 200, body: {} };
      },
      'GET /api/v1/document/list': () => {
        if (!created) return { status: 200, body: { total: 0, document: [] } };
        listAnswers += 1;
        return listAnswers === 1
          ? { status: 500, body: { code: 500, message: '服务器内部错误' } }
          : {
              status: 200,
              body: { total: 1, document: [{ id: 9, title: '讲义', status: 2, pages: 3, category_id: [7] }] },
            };
      },
    });
    await publishOne('讲义.pdf', 15);

    const statuses = await screen.findByRole('region', { name: '转换状态' });
    expect((await within(statuses).findByRole('alert')).textContent).toContain('服务器内部错误');
    expect(within(statuses).queryByText('其余文档正在创建中…')).toBeNull();
    await userEvent.click(within(statuses).getByRole('button', { name: '重试' }));
    expect(await within(statuses).findByText('已转换')).toBeTruthy();
    expect(within(statuses).getByRole('link', { name: '阅读' }).getAttribute('href')).toBe('/library/7/9');
    expect(within(statuses).queryByRole('alert')).toBeNull();
  });
});

describe('the upload by keyboard', () => {
  it('takes the keyboard to the first field a 发布 refuses, and past a removed row to the next, then to 选择文件', async () => {
    renderUpload({});
    const input = (await screen.findByTestId('document-files')) as HTMLInputElement;
    await userEvent.upload(input, [file('课件.pdf'), file('讲义.pdf')]);
    (await uploadOf('课件.pdf')).answer(200, { code: 200, data: { id: 11 } });
    (await uploadOf('讲义.pdf')).answer(200, { code: 200, data: { id: 12 } });
    const first = await screen.findByRole('listitem', { name: '课件.pdf' });
    await within(first).findByText('已上传，待发布');
    const title = within(first).getByLabelText('标题');
    await userEvent.clear(title);
    await userEvent.click(screen.getByRole('button', { name: /发布/ }));
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(document.getElementById(title.getAttribute('aria-describedby') ?? '')?.textContent).toBe('请输入文档标题');

    within(first).getByRole('button', { name: '移除 课件.pdf' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('listitem', { name: '课件.pdf' })).toBeNull();
    const next = screen.getByRole('button', { name: '移除 讲义.pdf' });
    expect(next.closest('li')?.contains(document.activeElement)).toBe(true);
    next.focus();
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '选择文件' }));
  });
});

describe('the size limit', () => {
  it('shows a file just over the limit as over it (1.01 MB, not 1 MB), and by how much', async () => {
    renderUpload({});
    await userEvent.upload((await screen.findByTestId('document-files')) as HTMLInputElement, [
      file('略大.pdf', 1024 * 1024 + 3 * 1024),
    ]);
    const item = within(screen.getByRole('region', { name: '文件列表' })).getByRole('listitem', { name: '略大.pdf' });
    expect(within(item).getByText('1.01 MB')).toBeTruthy();
    expect(within(item).getByRole('alert').textContent).toBe('文件大小超出限制（最大 1 MB，超出 3 KB）');
  });

  it('holds the server 50 MB limit when the site sets none', async () => {
    ScriptedUpload.sent = [];
    renderApp('/upload', {
      user: member,
      settings: { ...settings, security: { ...settings.security, max_document_size: 0 } },
      backend: { 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
    });
    api.configure({ createXhr: () => new ScriptedUpload() as unknown as XMLHttpRequest });
    expect(await screen.findByText(/单个文件不超过 50 MB。$/)).toBeTruthy();
    await userEvent.upload(screen.getByTestId('document-files') as HTMLInputElement, [
      file('巨大.pdf', 50 * 1024 * 1024 + 1),
    ]);
    const item = within(screen.getByRole('region', { name: '文件列表' })).getByRole('listitem', { name: '巨大.pdf' });
    expect(within(item).getByText('50.01 MB')).toBeTruthy();
    expect(within(item).getByRole('alert').textContent).toBe('文件大小超出限制（最大 50 MB，超出 1 B）');
    expect(ScriptedUpload.sent).toHaveLength(0);
  });
});

describe('the formats offered', () => {
  it('lists only the formats the server converts now, and refuses the others before sending', async () => {
    renderUpload({
      'GET /api/v1/document/formats': { status: 200, body: { ext: ['.pdf', '.txt', '.epub', '.mobi', '.azw'] } },
    });
    expect(
      await screen.findByText('支持 PDF、文本、EPUB、MOBI、AZW 格式，可一次选择多个文件，单个文件不超过 1 MB。'),
    ).toBeTruthy();
    const input = screen.getByTestId('document-files') as HTMLInputElement;
    expect(input.getAttribute('accept')).toBe('.pdf,.txt,.epub,.mobi,.azw');
    await userEvent.upload(input, [file('合同.docx'), file('讲稿.txt')], { applyAccept: false });
    const items = screen.getByRole('region', { name: '文件列表' });
    expect(within(within(items).getByRole('listitem', { name: '合同.docx' })).getByRole('alert').textContent).toBe(
      '服务器暂时无法转换 .docx 格式的文档',
    );
    expect(ScriptedUpload.sent.map((u) => u.fileName)).toEqual(['讲稿.txt']);
  });
});

describe('a member whose documents are reviewed', () => {
  /** 《title》 in review (status 6), as the list and GetDocument give it. */
  const inReview = (title: string, hashChar: string): Document => ({
    id: 6,
    title,
    status: 6,
    category_id: [7],
    attachment: { hash: hashChar.repeat(32) },
  });

  /** The upload screen on a backend that lists `listed()` once a document is created, and reads `read()` for it. */
  function renderReviewUpload(listed: () => Document, read?: () => Document) {
    let created = false;
    renderUpload({
      'POST /api/v1/document': () => {
        created = true;
        return { status: 200, body: {} };
      },
      'GET /api/v1/document/list': () => ({ status: 200, body: { total: 1, document: created ? [listed()] : [] } }),
      ...(read ? { 'GET /api/v1/document': () => ({ status: 200, body: read() }) } : {}),
    });
  }

  it('says a published document waits for review before it is public, converting meanwhile, then readable by its uploader', async () => {
    fakePolling();
    let pages = 0;
    const waiting = inReview('复习资料', 'b');
    renderReviewUpload(
      () => ({ ...waiting, pages }),
      () => ({ ...waiting, pages, ...(pages ? {} : { convert_progress: { done: 3, total: 12 } }) }),
    );
    await publishOne('复习资料.pdf', 12);

    const statuses = await screen.findByRole('region', { name: '转换状态' });
    expect(await within(statuses).findByText('待审核')).toBeTruthy();
    // How far, as for a document converting outside review.
    expect(await within(statuses).findByText('已完成 3 / 12 页')).toBeTruthy();
    // A state to wait for, not written as the failures are (in red); the conversion runs in review too.
    expect(within(statuses).getByText('转换中，审核通过后公开').className).toBe('app-conversion__note');
    expect(
      (within(statuses).getByRole('progressbar', { name: '复习资料 转换进度' }) as HTMLProgressElement).value,
    ).toBe(3);
    expect(within(statuses).queryByRole('link', { name: '阅读' })).toBeNull();
    // Converted in review: its uploader reads it already (the reader shows it to them and the admins).
    pages = 4;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await within(statuses).findByText('审核通过后公开')).toBeTruthy();
    expect(within(statuses).getByText('待审核')).toBeTruthy();
    expect(within(statuses).queryByRole('progressbar')).toBeNull();
    expect(within(statuses).getByRole('link', { name: '阅读' }).getAttribute('href')).toBe('/library/7/6');
  });

  it('says a document in review waits for its conversion while the job is queued, the note as the progress', async () => {
    fakePolling();
    let started = false;
    const waiting = inReview('排队资料', 'd');
    renderReviewUpload(
      () => waiting,
      () => ({ ...waiting, convert_progress: started ? { done: 1, total: 8 } : { done: 0, total: 0 } }),
    );
    await publishOne('排队资料.pdf', 14);

    const statuses = await screen.findByRole('region', { name: '转换状态' });
    expect(await within(statuses).findByText('等待转换，审核通过后公开')).toBeTruthy();
    expect(within(statuses).getByText('等待转换').className).toBe('app-conversion__count');
    expect(within(statuses).queryByText('转换中，审核通过后公开')).toBeNull();
    // The job starts: both say it converts.
    started = true;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await within(statuses).findByText('已完成 1 / 8 页')).toBeTruthy();
    expect(within(statuses).getByText('转换中，审核通过后公开').className).toBe('app-conversion__note');
    expect(within(statuses).queryByText(/等待转换/)).toBeNull();
  });

  it('says when the conversion of a document in review failed, why, and what to do', async () => {
    fakePolling();
    let failed = false;
    const waiting = inReview('加密资料', 'c');
    renderReviewUpload(() => (failed ? { ...waiting, convert_error: '文档已加密，无法转换' } : waiting));
    await publishOne('加密资料.pdf', 13);

    const statuses = await screen.findByRole('region', { name: '转换状态' });
    expect(await within(statuses).findByText('等待转换，审核通过后公开')).toBeTruthy();
    // Still converting in review: the list is asked again until the conversion ends.
    failed = true;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await within(statuses).findByText(/转换失败：文档已加密，无法转换。请删除该文档/)).toBeTruthy();
    expect(within(statuses).getByText('待审核')).toBeTruthy();
    expect(within(statuses).queryByText(/审核通过后公开/)).toBeNull();
    expect(within(statuses).queryByRole('link', { name: '阅读' })).toBeNull();
    expect(within(statuses).getByRole('link', { name: '前往我的文档' }).getAttribute('href')).toBe('/member/document');
  });
});
