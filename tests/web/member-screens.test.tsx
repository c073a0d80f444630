// Member-area screens against a scripted backend: 我的文档's empty state and conversions
// followed to their end, and 我的下载's rows (what each cost, and why).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { focusManager } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Document } from '../../shared/types/document';
import type { Message } from '../../shared/types/message';
import { CONVERSION_POLL } from '../../web/src/features/document/conversion';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, pauseToast, toasts } from '../../web/src/kit/toasts/toast-store';
import { fakePolling, nextPoll } from './polling';
import { member, renderApp, settings, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const noDocuments: Backend = { 'GET /api/v1/document/list': { status: 200, body: { total: 0, document: [] } } };

describe('/member/document', () => {
  it('offers 上传文档 on the empty list when the member may upload', async () => {
    renderApp('/member/document', {
      user: member,
      backend: { ...noDocuments, 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
    });
    const empty = within((await screen.findByText('暂无文档')).closest('.app-state') as HTMLElement);
    expect((await empty.findByRole('link', { name: '上传文档' })).getAttribute('href')).toBe('/upload');
  });

  it("says why instead when the member's groups may not upload", async () => {
    renderApp('/member/document', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/user/caniuploaddocument': {
          status: 403,
          body: { code: 7, message: '您所在的用户组暂不允许上传文档' },
        },
      },
    });
    const empty = within((await screen.findByText('暂无文档')).closest('.app-state') as HTMLElement);
    expect(await empty.findByText('暂时不能上传文档：您所在的用户组暂不允许上传文档')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '上传文档' })).toBeNull();
  });

  it('still offers 上传文档 when the right could not be checked (the upload screen asks again and says why)', async () => {
    renderApp('/member/document', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/user/caniuploaddocument': {
          status: 500,
          body: { code: 13, message: '服务器内部错误，请稍后再试' },
        },
      },
    });
    const empty = within((await screen.findByText('暂无文档')).closest('.app-state') as HTMLElement);
    expect((await empty.findByRole('link', { name: '上传文档' })).getAttribute('href')).toBe('/upload');
  });
});

describe('/member/document prices', () => {
  it("says a priced document's price in the site's credit name, as 我的下载 does", async () => {
    renderApp('/member/document', {
      user: member,
      settings: { ...settings, system: { ...settings.system, credit_name: '魔豆' } },
      backend: {
        'GET /api/v1/document/list': {
          status: 200,
          body: {
            total: 2,
            document: [
              { id: 8, title: '付费讲义', status: 2, price: 5, category_id: [7] },
              { id: 7, title: '免费讲义', status: 2, category_id: [7] },
            ],
          },
        },
      },
    });
    const row = async (title: string) =>
      within((await screen.findByRole('link', { name: title })).closest('tr') as HTMLElement);
    expect((await row('付费讲义')).getByText('5 魔豆')).toBeTruthy();
    expect((await row('免费讲义')).getByText('免费')).toBeTruthy();

    // The edit form's price hint names the unit.
    await userEvent.click(screen.getByRole('button', { name: '编辑“付费讲义”' }));
    expect(screen.getByLabelText('价格').getAttribute('aria-describedby')).toBeTruthy();
    expect(
      document.getElementById(screen.getByLabelText('价格').getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('下载所需魔豆，0 表示免费下载');
  });
});

describe('/member/document failed conversions', () => {
  it('tells the uploader to mend the file when the file failed, and to ask the admins when the site did', async () => {
    renderApp('/member/document', {
      user: member,
      backend: {
        'GET /api/v1/document/list': {
          status: 200,
          body: {
            total: 4,
            document: [
              { id: 9, title: '加密讲义', status: 3, convert_error: '文档已加密，无法转换' },
              { id: 8, title: '长篇小说', status: 3, convert_error: '文档转换超时（限时 30 分钟）' },
              { id: 7, title: '年度报表', status: 6, convert_error: '服务器未安装转换此格式所需的程序' },
              // Approved after its conversion failed in review: queued to convert again, the reason not yet cleared.
              { id: 6, title: '再试一次', status: 0, convert_error: '文档转换超时（限时 30 分钟）' },
            ],
          },
        },
      },
    });
    const row = async (title: string) => within((await screen.findByText(title)).closest('tr') as HTMLElement);
    const mend = '请删除该文档，检查文件（如去掉密码、确认格式）后重新上传。';
    const ask = '这是服务器转换时出现的问题，重新上传同一文件无法解决，请联系网站管理员重新转换。';
    expect((await row('加密讲义')).getByText(mend)).toBeTruthy();
    expect((await row('长篇小说')).getByText(ask)).toBeTruthy();
    expect((await row('长篇小说')).queryByText(mend)).toBeNull();
    expect((await row('年度报表')).getByText('转换失败：服务器未安装转换此格式所需的程序')).toBeTruthy();
    expect((await row('年度报表')).getByText(ask)).toBeTruthy();
    expect((await row('再试一次')).getByText('待转换')).toBeTruthy();
    expect((await row('再试一次')).queryByText(/转换失败/)).toBeNull();
    expect((await row('再试一次')).queryByText(ask)).toBeNull();
  });
});

describe('/member/document documents others cannot see', () => {
  it('says what 待审核 (converting or not), 审核拒绝 and 已禁用 mean to the uploader, and nothing beside a public one', async () => {
    renderApp('/member/document', {
      user: member,
      backend: {
        'GET /api/v1/document/list': {
          status: 200,
          body: {
            total: 5,
            document: [
              { id: 5, title: '待审待转', status: 6, pages: 0, category_id: [7] },
              { id: 4, title: '待审讲义', status: 6, pages: 2, category_id: [7] },
              { id: 3, title: '被拒讲义', status: 7, pages: 2, category_id: [7] },
              { id: 2, title: '禁用讲义', status: 4, pages: 2, category_id: [7] },
              { id: 1, title: '公开讲义', status: 2, pages: 2, category_id: [7] },
            ],
          },
        },
        'GET /api/v1/document': {
          status: 200,
          body: { id: 5, title: '待审待转', status: 6, category_id: [7], convert_progress: { done: 1, total: 3 } },
        },
      },
    });
    const row = async (title: string) =>
      within((await screen.findByRole('link', { name: title })).closest('tr') as HTMLElement);
    expect((await row('待审讲义')).getByText('审核通过后公开，目前仅您和管理员可以阅读。')).toBeTruthy();
    // In review without pages yet: its file still converts, there is nothing to read.
    expect(
      await (await row('待审待转')).findByText('转换中，转换完成后您和管理员可以阅读，审核通过后公开。'),
    ).toBeTruthy();
    expect((await row('待审待转')).queryByText('审核通过后公开，目前仅您和管理员可以阅读。')).toBeNull();
    expect(
      (await row('被拒讲义')).getByText('未通过审核，其他人无法阅读或下载。如有疑问，请联系网站管理员。'),
    ).toBeTruthy();
    expect(
      (await row('禁用讲义')).getByText('已被管理员禁用，其他人无法阅读或下载。如有疑问，请联系网站管理员。'),
    ).toBeTruthy();
    const publicRow = (await screen.findByRole('link', { name: '公开讲义' })).closest('tr') as HTMLElement;
    expect(publicRow.querySelector('.app-field__hint')).toBeNull();
  });
});

/** 我的文档 holding one document, 讲义, in the category 教育. */
const ONE_DOCUMENT = {
  'GET /api/v1/document/list': {
    status: 200,
    body: { total: 1, document: [{ id: 8, title: '讲义', status: 2, category_id: [7] }] },
  },
  'GET /api/v1/category/list': { status: 200, body: { category: [{ id: 7, title: '教育', enable: true }] } },
};

describe('/member/document 编辑', () => {
  it('refuses a price above what the server takes, as the upload does, without sending it', async () => {
    const { fetchMock } = renderApp('/member/document', {
      user: member,
      backend: ONE_DOCUMENT,
    });
    await userEvent.click(await screen.findByRole('button', { name: '编辑“讲义”' }));
    const price = screen.getByLabelText('价格');
    await userEvent.clear(price);
    await userEvent.type(price, '2000000');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('价格不能超过 1000000')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'PUT')).toBe(false);
  });
});

describe('/member/document 编辑 of a published document', () => {
  /** Saves a new title of 讲义 (published) on a backend whose document is then in `status`. */
  async function saveNewTitle(status: number) {
    renderApp('/member/document', {
      user: member,
      backend: {
        ...ONE_DOCUMENT,
        'PUT /api/v1/document': { status: 200, body: {} },
        'GET /api/v1/document': { status: 200, body: { id: 8, title: '新讲义', status, category_id: [7] } },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '编辑“讲义”' }));
    const title = screen.getByLabelText('标题');
    await userEvent.clear(title);
    await userEvent.type(title, '新讲义');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(toasts.value.length).toBe(1));
    return toasts.value[0]!;
  }

  it('says the edit waits for the review when it sent the document back to it', async () => {
    const said = await saveNewTitle(6);
    expect([said.title, said.description]).toEqual(['文档已保存，等待审核', '审核通过后其他人才能看到']);
  });

  it('says 保存成功 when the document stays published', async () => {
    expect((await saveNewTitle(2)).title).toBe('保存成功');
  });
});

describe('/member/document 编辑 unsaved', () => {
  it('asks before a move to another screen drops what was typed, and asks nothing for an untouched form', async () => {
    const { router } = renderApp('/member/document', {
      user: member,
      backend: { ...ONE_DOCUMENT, 'GET /api/v1/user/download': { status: 200, body: { total: 0, download: [] } } },
    });
    await userEvent.click(await screen.findByRole('button', { name: '编辑“讲义”' }));
    await waitFor(() => expect(screen.getAllByRole('option').length).toBeGreaterThan(1));
    await act(() => router.navigate('/member/download'));
    expect(await screen.findByText('暂无下载记录')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await act(() => router.navigate('/member/document'));
    await userEvent.click(await screen.findByRole('button', { name: '编辑“讲义”' }));
    await userEvent.type(screen.getByLabelText('标题'), '（第二版）');
    await act(() => router.navigate('/member/download'));
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    expect(ask.textContent).toContain('文档信息还没有保存');
    expect(router.state.location.pathname).toBe('/member/document');
    await userEvent.click(within(ask).getByRole('button', { name: '留下继续编辑' }));
    expect((screen.getByLabelText('标题') as HTMLInputElement).value).toBe('讲义（第二版）');
  });

  it('asks before another row’s 编辑 replaces a form holding typed changes, and not when it holds none', async () => {
    renderApp('/member/document', {
      user: member,
      backend: {
        ...ONE_DOCUMENT,
        'GET /api/v1/document/list': {
          status: 200,
          body: {
            total: 2,
            document: [
              { id: 9, title: '教案', status: 2, category_id: [7] },
              { id: 8, title: '讲义', status: 2, category_id: [7] },
            ],
          },
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '编辑“讲义”' }));
    await userEvent.click(screen.getByRole('button', { name: '编辑“教案”' }));
    expect(screen.getByRole('heading', { name: '编辑文档“教案”' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await userEvent.type(screen.getByLabelText('标题'), '（第二版）');
    await userEvent.click(screen.getByRole('button', { name: '编辑“讲义”' }));
    let ask = await screen.findByRole('alertdialog', { name: '离开编辑' });
    expect(ask.textContent).toContain('文档信息还没有保存，离开后修改的内容会丢失。确定离开吗？');
    await userEvent.click(within(ask).getByRole('button', { name: '留下继续编辑' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((screen.getByLabelText('标题') as HTMLInputElement).value).toBe('教案（第二版）');

    await userEvent.click(screen.getByRole('button', { name: '编辑“讲义”' }));
    ask = await screen.findByRole('alertdialog', { name: '离开编辑' });
    await userEvent.click(within(ask).getByRole('button', { name: '离开' }));
    expect(screen.getByRole('heading', { name: '编辑文档“讲义”' })).toBeTruthy();
    expect((screen.getByLabelText('标题') as HTMLInputElement).value).toBe('讲义');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('/member/document 编辑 by keyboard', () => {
  it("gives the focus back to the row's 编辑 when the form is closed", async () => {
    renderApp('/member/document', {
      user: member,
      backend: ONE_DOCUMENT,
    });
    (await screen.findByRole('button', { name: '编辑“讲义”' })).focus();
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('标题'));
    screen.getByRole('button', { name: '取消' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('heading', { name: '编辑文档“讲义”' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '编辑“讲义”' }));
  });

  it('takes the keyboard to the first field a save refuses, each message tied to its field', async () => {
    renderApp('/member/document', {
      user: member,
      backend: ONE_DOCUMENT,
    });
    await userEvent.click(await screen.findByRole('button', { name: '编辑“讲义”' }));
    const price = screen.getByLabelText('价格');
    await userEvent.clear(price);
    await userEvent.type(price, '-3');
    const description = screen.getByLabelText('简介');
    await userEvent.click(description);
    await userEvent.paste('长'.repeat(600));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(document.activeElement).toBe(price));
    expect(price.getAttribute('aria-invalid')).toBe('true');
    expect(description.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(description.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      '文档简介不能超过 512 个字符',
    );
  });
});

/** 我的文档 listing `rows`, whose DELETE takes the ids it is given out of them. */
function deletableDocuments(rows: Partial<Document>[]): Backend {
  let left = rows;
  return {
    'GET /api/v1/document/list': () => ({ status: 200, body: { total: left.length, document: left } }),
    'DELETE /api/v1/document': (url) => {
      const gone = url.searchParams.getAll('id').map(Number);
      left = left.filter((row) => !gone.includes(row.id ?? 0));
      return { status: 200, body: {} };
    },
  };
}

describe('/member/document 删除', () => {
  /** Opens the question of 删除“讲义” on a site that takes back `credits` for a delete. */
  async function askToDelete(credits: number) {
    renderApp('/member/document', {
      user: member,
      settings: { ...settings, system: { ...settings.system, credit_name: '魔豆', delete_document_credits: credits } },
      backend: ONE_DOCUMENT,
    });
    await userEvent.click(await screen.findByRole('button', { name: '删除“讲义”' }));
  }

  it('says before a delete the credits it takes back, when the site takes any', async () => {
    await askToDelete(2);
    expect(screen.getByText('确定删除？删除后将扣除 2 魔豆')).toBeTruthy();
  });

  it('asks only 确定删除？ when a delete costs nothing', async () => {
    await askToDelete(0);
    expect(screen.getByText('确定删除？')).toBeTruthy();
  });

  it('says the document is deleted and whom to ask to have it back, not a recycle bin the member has not', async () => {
    renderApp('/member/document', {
      user: member,
      backend: deletableDocuments([{ id: 8, title: '讲义', status: 2, category_id: [7] }]),
    });
    await userEvent.click(await screen.findByRole('button', { name: '删除“讲义”' }));
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.map((t) => t.title)).toEqual(['删除成功']));
    expect(toasts.value[0]?.description).toBe('“讲义”已删除。如需恢复，请联系网站管理员。');
  });

  it('closes the edit form of a document once it is deleted', async () => {
    renderApp('/member/document', {
      user: member,
      backend: deletableDocuments([
        { id: 9, title: '教案', status: 2, category_id: [7] },
        { id: 8, title: '讲义', status: 2, category_id: [7] },
      ]),
    });
    await userEvent.click(await screen.findByRole('button', { name: '编辑“讲义”' }));
    expect(screen.getByRole('heading', { name: '编辑文档“讲义”' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '删除“讲义”' }));
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: '讲义' })).toBeNull());
    expect(screen.getByRole('link', { name: '教案' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: '编辑文档“讲义”' })).toBeNull();
  });
});

describe('/member/document 删除 by keyboard', () => {
  it('goes on at the row now in the place of the one deleted, and at the heading once none is left', async () => {
    renderApp('/member/document', {
      user: member,
      backend: deletableDocuments([
        { id: 9, title: '教案', status: 2, category_id: [7] },
        { id: 8, title: '讲义', status: 2, category_id: [7] },
      ]),
    });
    const deleteByKeyboard = async (title: string) => {
      screen.getByRole('button', { name: `删除“${title}”` }).focus();
      await userEvent.keyboard('{Enter}');
      await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Enter}');
      await waitFor(() => expect(screen.queryByRole('link', { name: title })).toBeNull());
    };
    await screen.findByRole('link', { name: '教案' });
    await deleteByKeyboard('教案');
    // The row of 讲义 took its place: the keyboard is there, not on <body>.
    await waitFor(() => expect(screen.getByRole('row', { name: /讲义/ }).contains(document.activeElement)).toBe(true));
    await deleteByKeyboard('讲义');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: '我的文档' })));
  });
});

describe('/member/message pages', () => {
  it('keeps its page in the address, so that the back from another screen comes back to page 2', async () => {
    const messages = Array.from({ length: 15 }, (_, i) => ({
      id: 15 - i,
      title: `通知 ${15 - i}`,
      content: `第 ${15 - i} 条通知`,
      created_at: '2026-11-20T08:00:00Z',
      read_at: '2026-11-20T09:00:00Z',
    }));
    const { router } = renderApp('/member/message', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/message/list': (url) => {
          const [page, size] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))];
          return {
            status: 200,
            body: { total: messages.length, unread: 0, message: messages.slice((page - 1) * size, page * size) },
          };
        },
        'GET /api/v1/message/unread': () => ({ status: 200, body: { count: 0 } }),
      },
    });
    expect(await screen.findByText('第 15 条通知')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(await screen.findByText('第 5 条通知')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    await act(() => router.navigate('/member/document'));
    expect(await screen.findByText('暂无文档')).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(await screen.findByText('第 5 条通知')).toBeTruthy();
    expect(screen.queryByText('第 15 条通知')).toBeNull();
  });

  it('goes from a page past the last (an old link) to the last page at once, not one page back at a time', async () => {
    const messages = Array.from({ length: 15 }, (_, i) => ({
      id: 15 - i,
      title: `通知 ${15 - i}`,
      content: `第 ${15 - i} 条通知`,
      created_at: '2026-11-20T08:00:00Z',
      read_at: '2026-11-20T09:00:00Z',
    }));
    const asked: number[] = [];
    const { router } = renderApp('/member/message?page=40', {
      user: member,
      backend: {
        'GET /api/v1/message/list': (url) => {
          const [page, size] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))];
          asked.push(page);
          return {
            status: 200,
            body: { total: messages.length, unread: 0, message: messages.slice((page - 1) * size, page * size) },
          };
        },
        'GET /api/v1/message/unread': () => ({ status: 200, body: { count: 0 } }),
      },
    });
    expect(await screen.findByText('第 5 条通知')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    expect(asked).toEqual([40, 2]);
    expect(screen.queryByText('暂无消息')).toBeNull();
  });
});

describe('/member/message tab', () => {
  it('keeps 未读 in the address, so that the back from another screen comes back to it', async () => {
    const messages = Array.from({ length: 15 }, (_, i) => ({
      id: 15 - i,
      title: `通知 ${15 - i}`,
      content: `第 ${15 - i} 条通知`,
      created_at: '2026-11-20T08:00:00Z',
      read_at: i % 2 === 0 ? null : '2026-11-20T09:00:00Z',
    }));
    const { router } = renderApp('/member/message?page=2', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/message/list': (url) => {
          const [page, size] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))];
          const shown = url.searchParams.get('unread') === 'true' ? messages.filter((m) => !m.read_at) : messages;
          return {
            status: 200,
            body: { total: shown.length, unread: 8, message: shown.slice((page - 1) * size, page * size) },
          };
        },
        'GET /api/v1/message/unread': () => ({ status: 200, body: { count: 8 } }),
      },
    });
    expect(await screen.findByText('第 5 条通知')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: /未读消息/ }));
    // Page 1 of the unread ones (the odd ones, 8 of them), in place of the address before (no step of the history).
    expect(await screen.findByText('第 1 条通知')).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=unread');
    expect(router.state.historyAction).toBe('REPLACE');
    await act(() => router.navigate('/member/document'));
    expect(await screen.findByText('暂无文档')).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(await screen.findByText('第 1 条通知')).toBeTruthy();
    expect(screen.queryByText('第 14 条通知')).toBeNull();
    expect(screen.getByRole('tab', { name: /未读消息/ }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('/member/message by keyboard', () => {
  it('keeps the focus in a message marked read, and goes on at the next one once a message is deleted', async () => {
    let messages = [
      { id: 31, title: '文档审核通过', content: '《讲义》已通过审核', created_at: '2026-11-20T08:00:00Z' },
      {
        id: 30,
        title: '收到回复',
        content: 'bob 回复了你',
        created_at: '2026-11-19T08:00:00Z',
        read_at: '2026-11-19T09:00:00Z',
      },
    ];
    renderApp('/member/message', {
      user: member,
      backend: {
        'GET /api/v1/message/list': () => ({
          status: 200,
          body: { total: messages.length, unread: messages.filter((m) => !m.read_at).length, message: messages },
        }),
        'GET /api/v1/message/unread': () => ({ status: 200, body: { count: 0 } }),
        'PUT /api/v1/message/read': () => {
          messages = messages.map((m) => ({ ...m, read_at: m.read_at ?? '2026-11-21T08:00:00Z' }));
          return { status: 200, body: {} };
        },
        'DELETE /api/v1/message': (url) => {
          const gone = url.searchParams.getAll('id').map(Number);
          messages = messages.filter((m) => !gone.includes(m.id));
          return { status: 200, body: {} };
        },
      },
    });
    const row = (title: string) => screen.getByRole('heading', { name: new RegExp(title) }).closest('li')!;
    (await screen.findByRole('button', { name: '标为已读' })).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('button', { name: '标为已读' })).toBeNull());
    // The button gone with the message read: the keyboard stays in that message.
    await waitFor(() => expect(row('文档审核通过').contains(document.activeElement)).toBe(true));
    screen.getByRole('button', { name: '删除消息“文档审核通过”' }).focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Enter}');
    await waitFor(() => expect(screen.queryByRole('heading', { name: /文档审核通过/ })).toBeNull());
    await waitFor(() => expect(row('收到回复').contains(document.activeElement)).toBe(true));
  });
});

/** 我的消息 of `member`, holding `messages` (those without `read_at` unread). */
const renderMessageCentre = (messages: Message[]) => {
  const unread = messages.filter((m) => !m.read_at).length;
  return renderApp('/member/message', {
    user: member,
    backend: {
      'GET /api/v1/message/list': { status: 200, body: { total: messages.length, unread, message: messages } },
      'GET /api/v1/message/unread': { status: 200, body: { count: unread } },
    },
  });
};

describe('/member/message about orders', () => {
  it('leads a confirmed and a refunded order to 我的订单, as they name no page of their own', async () => {
    renderMessageCentre([
      {
        id: 41,
        type: 6,
        title: '订单已退款',
        content: '您的订单 2026112016000012345678（月度会员）已退款 30.00 元，收回 VIP 会员 30 天，VIP 会员已结束。',
        created_at: '2026-11-21T08:00:00Z',
      },
      {
        id: 40,
        type: 5,
        title: '会员已开通',
        content: '您的订单 2026112016000012345678（月度会员）已确认收款，VIP 会员有效期至 2026-12-20 16:00。',
        created_at: '2026-11-20T08:00:00Z',
      },
    ]);
    for (const title of ['订单已退款', '会员已开通']) {
      const item = within((await screen.findByRole('heading', { name: new RegExp(title) })).closest('li')!);
      expect(item.getByRole('link', { name: '查看我的订单' }).getAttribute('href')).toBe('/member/order');
    }
  });
});

describe('/member/message about an admin’s VIP grant or revoke', () => {
  it('leads them to /vip, where the member’s VIP state is, and names them among what the empty centre tells of', async () => {
    const centre = renderMessageCentre([
      {
        id: 51,
        type: 10,
        title: '会员已取消',
        content: '管理员取消了您的 VIP 会员，会员权益已结束。如有疑问，请联系网站管理员。',
        created_at: '2026-11-22T08:00:00Z',
      },
      {
        id: 50,
        type: 9,
        title: '会员已开通',
        content: '管理员为您开通了 VIP 会员 7 天，会员有效期至 2026-11-28 16:00。',
        created_at: '2026-11-21T08:00:00Z',
      },
    ]);
    for (const title of ['会员已取消', '会员已开通']) {
      const item = within((await screen.findByRole('heading', { name: new RegExp(title) })).closest('li')!);
      expect(item.getByRole('link', { name: '查看 VIP 会员' }).getAttribute('href')).toBe('/vip');
    }
    centre.unmount();
    renderMessageCentre([]);
    await screen.findByText('暂无消息');
    expect(screen.getByText(/VIP 会员的开通和取消/)).toBeTruthy();
  });
});

describe('/member/message about comment reviews', () => {
  it('says a comment was approved or rejected and leads to it, or to the comments when the message names none', async () => {
    renderMessageCentre([
      {
        id: 51,
        type: 8,
        title: '评论审核未通过',
        content: '您在文档《城市图书馆的一天》中的评论未通过审核，只有您自己看得到：写得真好。',
        target_id: 12,
        comment_id: 31,
        created_at: '2026-11-21T08:00:00Z',
      },
      {
        id: 50,
        type: 7,
        title: '评论审核通过',
        content: '您在文章《读书的方法》中的评论已通过审核，现在所有人都可以看到：慢读才有收获。',
        target_type: 1,
        target_id: 7,
        target_key: 'reading-methods',
        created_at: '2026-11-20T08:00:00Z',
      },
    ]);
    const rejected = within((await screen.findByRole('heading', { name: /评论审核未通过/ })).closest('li')!);
    expect(rejected.getByText(/未通过审核，只有您自己看得到：写得真好/)).toBeTruthy();
    expect(rejected.getByRole('link', { name: '查看文档' }).getAttribute('href')).toMatch(
      /^\/library\/[^/]+\/12#comment-31$/,
    );
    // Written before messages named their comment: the comments of the article.
    const approved = within(screen.getByRole('heading', { name: /评论审核通过/ }).closest('li')!);
    expect(approved.getByRole('link', { name: '查看文章' }).getAttribute('href')).toBe(
      '/article/detail/reading-methods#comments',
    );
  });

  it('names comment reviews among what the empty centre will tell of', async () => {
    renderMessageCentre([]);
    await screen.findByText('暂无消息');
    expect(screen.getByText(/评论审核结果和回复/)).toBeTruthy();
  });
});

describe('/member/message about comments', () => {
  it('leads a reply to itself under its document or article (older ones to the comments), a review to the top of the document', async () => {
    renderMessageCentre([
      {
        id: 52,
        type: 4,
        title: '评论有了新回复',
        content: 'admin 在文章《读书笔记》中回复了您：谢谢',
        target_type: 1,
        target_id: 7,
        target_key: 'reading-notes',
        comment_id: 88,
        created_at: '2026-11-22T08:00:00Z',
        read_at: '2026-11-22T09:00:00Z',
      },
      {
        id: 51,
        type: 4,
        title: '评论有了新回复',
        content: 'admin 在文档《城市图书馆的一天》中回复了您：谢谢支持！',
        target_type: 0,
        target_id: 12,
        created_at: '2026-11-21T08:00:00Z',
        read_at: '2026-11-21T09:00:00Z',
      },
      {
        id: 50,
        type: 1,
        title: '文档审核通过',
        content: '您上传的文档《季度工作总结》已通过审核，现在所有人都可以阅读。',
        target_type: 0,
        target_id: 13,
        created_at: '2026-11-20T08:00:00Z',
        read_at: '2026-11-20T09:00:00Z',
      },
    ]);
    const item = async (content: RegExp) => within((await screen.findByText(content)).closest('li')!);
    expect((await item(/文章《读书笔记》/)).getByRole('link', { name: '查看文章' }).getAttribute('href')).toBe(
      '/article/detail/reading-notes#comment-88',
    );
    expect((await item(/文档《城市图书馆的一天》/)).getByRole('link', { name: '查看文档' }).getAttribute('href')).toBe(
      '/library/1/12#comments',
    );
    expect((await item(/已通过审核/)).getByRole('link', { name: '查看文档' }).getAttribute('href')).toBe(
      '/library/1/13',
    );
  });
});

describe('/member/message 全部标为已读 by keyboard', () => {
  it('gives the focus to the shown tab once nothing is left unread and the button turns disabled', async () => {
    let readAt: string | undefined;
    renderApp('/member/message', {
      user: member,
      backend: {
        'GET /api/v1/message/list': () => ({
          status: 200,
          body: {
            total: 1,
            unread: readAt ? 0 : 1,
            message: [{ id: 31, title: '文档审核通过', created_at: '2026-11-20T08:00:00Z', read_at: readAt }],
          },
        }),
        'GET /api/v1/message/unread': () => ({ status: 200, body: { count: readAt ? 0 : 1 } }),
        'PUT /api/v1/message/read': () => {
          readAt = '2026-11-21T08:00:00Z';
          return { status: 200, body: {} };
        },
      },
    });
    await screen.findByRole('button', { name: '标为已读' });
    screen.getByRole('button', { name: '全部标为已读' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('button', { name: '标为已读' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: '全部消息' })));
  });
});

describe('/member/document while documents convert', () => {
  it('updates the rows when their conversions end, keeping what the edit form holds, then stops asking', async () => {
    fakePolling();
    let ended = false;
    const report: Document = {
      id: 5,
      title: '年度报告',
      status: 1,
      category_id: [7],
      created_at: '2026-11-20T08:00:00Z',
    };
    const notes: Document = {
      id: 6,
      title: '复习资料',
      status: 6,
      category_id: [7],
      created_at: '2026-11-20T08:00:00Z',
    };
    const { fetchMock } = renderApp('/member/document', {
      user: member,
      backend: {
        'GET /api/v1/document/list': () => ({
          status: 200,
          body: {
            total: 2,
            document: ended
              ? [
                  { ...report, status: 2, pages: 5 },
                  { ...notes, convert_error: '文档已加密，无法转换' },
                ]
              : [report, notes],
          },
        }),
      },
    });
    const row = (title: string) => within(screen.getByRole('link', { name: title }).closest('tr') as HTMLElement);
    expect(await screen.findByRole('link', { name: '年度报告' })).toBeTruthy();
    expect(row('年度报告').getByText('转换中')).toBeTruthy();
    expect(row('复习资料').getByText('待审核')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '编辑“年度报告”' }));
    const title = screen.getByLabelText('标题') as HTMLInputElement;
    await userEvent.clear(title);
    await userEvent.type(title, '年度报告（修订）');

    ended = true;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await row('年度报告').findByText('已转换')).toBeTruthy();
    expect(row('年度报告').getByRole('cell', { name: '5' })).toBeTruthy();
    expect(row('复习资料').getByText('转换失败：文档已加密，无法转换')).toBeTruthy();
    expect((screen.getByLabelText('标题') as HTMLInputElement).value).toBe('年度报告（修订）');

    const lists = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/v1/document/list')).length;
    const asked = lists();
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(lists()).toBe(asked);
  });

  it('shows each converting row how far it is, 等待转换 while queued, in review too, until it ends', async () => {
    fakePolling();
    let started = false;
    let ended = false;
    const report: Document = { id: 5, title: '年度报告', status: 1, category_id: [7] };
    const notes: Document = { id: 6, title: '复习资料', status: 6, category_id: [7] };
    const { fetchMock } = renderApp('/member/document', {
      user: member,
      backend: {
        'GET /api/v1/document/list': () => ({
          status: 200,
          body: {
            total: 2,
            document: ended
              ? [
                  { ...report, status: 2, pages: 10 },
                  { ...notes, pages: 8 },
                ]
              : [report, notes],
          },
        }),
        'GET /api/v1/document': (url) => {
          if (ended)
            return {
              status: 200,
              body: url.searchParams.get('id') === '5' ? { ...report, status: 2, pages: 10 } : { ...notes, pages: 8 },
            };
          return url.searchParams.get('id') === '5'
            ? { status: 200, body: { ...report, convert_progress: { done: 2, total: 10 } } }
            : { status: 200, body: { ...notes, convert_progress: started ? { done: 1, total: 8 } : {} } };
        },
      },
    });
    const row = (title: string) => within(screen.getByRole('link', { name: title }).closest('tr') as HTMLElement);
    expect(await screen.findByRole('link', { name: '年度报告' })).toBeTruthy();
    expect(await row('年度报告').findByText('已完成 2 / 10 页')).toBeTruthy();
    expect((row('年度报告').getByRole('progressbar', { name: '年度报告 转换进度' }) as HTMLProgressElement).value).toBe(
      2,
    );
    // In review, its job still queued: the note says so, as the progress does.
    expect(await row('复习资料').findByText('等待转换，转换完成后您和管理员可以阅读，审核通过后公开。')).toBeTruthy();
    expect(row('复习资料').getByText('等待转换')).toBeTruthy();
    expect(row('复习资料').queryByText(/^转换中/)).toBeNull();

    started = true;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await row('复习资料').findByText('已完成 1 / 8 页')).toBeTruthy();
    expect(row('复习资料').getByText('转换中，转换完成后您和管理员可以阅读，审核通过后公开。')).toBeTruthy();
    expect(row('复习资料').queryByText(/等待转换/)).toBeNull();

    ended = true;
    await nextPoll(CONVERSION_POLL.maxMs);
    expect(await row('年度报告').findByText('已转换')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(row('复习资料').getByText('审核通过后公开，目前仅您和管理员可以阅读。')).toBeTruthy();
    const asks = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/v1/document')).length;
    const asked = asks();
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(asks()).toBe(asked);
  });

  it('says a document whose job began converting has started, not 等待转换, before a page is counted', async () => {
    const report: Document = { id: 5, title: '年度报告', status: 1, category_id: [7] };
    renderApp('/member/document', {
      user: member,
      backend: {
        'GET /api/v1/document/list': { status: 200, body: { total: 1, document: [report] } },
        'GET /api/v1/document': { status: 200, body: { ...report, convert_progress: {} } },
      },
    });
    const row = within((await screen.findByRole('link', { name: '年度报告' })).closest('tr') as HTMLElement);
    expect(row.getByText('转换中')).toBeTruthy();
    expect(await row.findByText('已开始转换')).toBeTruthy();
    expect(row.queryByText('等待转换')).toBeNull();
    // Working, how far not known yet: a bar without a value.
    expect(row.getByRole('progressbar', { name: '年度报告 转换进度' }).hasAttribute('value')).toBe(false);
  });

  it('asks for the list again at once when a row’s own answer says its conversion ended', async () => {
    // The list's own next ask never comes: its interval is the fake clock's, which stands still.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let lists = 0;
    const report: Document = { id: 5, title: '年度报告', status: 1, category_id: [7] };
    renderApp('/member/document', {
      user: member,
      backend: {
        // The first list says it converts; it had ended by the time the row asked.
        'GET /api/v1/document/list': () => ({
          status: 200,
          body: { total: 1, document: [lists++ === 0 ? report : { ...report, status: 2, pages: 10 }] },
        }),
        'GET /api/v1/document': { status: 200, body: { ...report, status: 2, pages: 10 } },
      },
    });
    const row = within((await screen.findByRole('link', { name: '年度报告' })).closest('tr') as HTMLElement);
    expect(await row.findByText('已转换')).toBeTruthy();
    expect(row.queryByText('等待转换')).toBeNull();
  });

  it('does not ask again about a list where nothing converts', async () => {
    fakePolling();
    const { fetchMock } = renderApp('/member/document', {
      user: member,
      backend: {
        'GET /api/v1/document/list': {
          status: 200,
          body: { total: 1, document: [{ id: 5, title: '年度报告', status: 2, pages: 5, category_id: [7] }] },
        },
      },
    });
    expect(await screen.findByRole('link', { name: '年度报告' })).toBeTruthy();
    const lists = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/v1/document/list')).length;
    await waitFor(() => expect(lists()).toBe(1));
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(lists()).toBe(1);
  });
});

describe('/member/download', () => {
  it('keeps its page in the address, so that the back from another screen comes back to page 2', async () => {
    const downloads = Array.from({ length: 25 }, (_, i) => ({
      id: 25 - i,
      document_id: 25 - i,
      title: `下载的资料 ${25 - i}`,
    }));
    const { router } = renderApp('/member/download', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/user/download': (url) => {
          const [page, size] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))];
          return {
            status: 200,
            body: { total: downloads.length, download: downloads.slice((page - 1) * size, page * size) },
          };
        },
      },
    });
    expect(await screen.findByRole('link', { name: '下载的资料 25' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(await screen.findByRole('link', { name: '下载的资料 15' })).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    await act(() => router.navigate('/member/document'));
    expect(await screen.findByText('暂无文档')).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('link', { name: '下载的资料 15' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: '下载的资料 25' })).toBeNull();
  });

  it("shows what a paid download cost, in the site's credit name", async () => {
    renderApp('/member/download', {
      user: member,
      settings: { ...settings, system: { ...settings.system, credit_name: '魔豆' } },
      backend: {
        'GET /api/v1/user/download': {
          status: 200,
          body: {
            total: 3,
            download: [
              { id: 3, document_id: 6, title: '年度报告', is_pay: true, price: 5 },
              { id: 2, document_id: 5, title: '旧的付费下载', is_pay: true },
              { id: 1, document_id: 4, title: '免费资料' },
            ],
          },
        },
      },
    });
    const row = (title: string) => within(screen.getByRole('link', { name: title }).closest('tr') as HTMLElement);
    expect(await screen.findByRole('link', { name: '年度报告' })).toBeTruthy();
    expect(row('年度报告').getByText('5 魔豆')).toBeTruthy();
    expect(row('旧的付费下载').getByText('付费（魔豆）')).toBeTruthy(); // paid before the price was kept
    expect(row('免费资料').getByText('免费')).toBeTruthy();
  });

  it('says why a free download was free: VIP 免费 with the price spared, 已购买, 我的文档, 免费', async () => {
    renderApp('/member/download', {
      user: member,
      settings: { ...settings, system: { ...settings.system, credit_name: '金币' } },
      backend: {
        'GET /api/v1/user/download': {
          status: 200,
          body: {
            total: 6,
            download: [
              { id: 6, document_id: 9, title: '会员下载', price: 8, reason: 'vip' },
              { id: 5, document_id: 8, title: '再次下载', price: 3, reason: 'bought' },
              { id: 4, document_id: 7, title: '自己的文档', price: 2, reason: 'owner' },
              { id: 3, document_id: 6, title: '零价资料', reason: 'free' },
              { id: 2, document_id: 5, title: '待审核资料', price: 1, reason: 'review' },
              { id: 1, document_id: 4, title: '早年的下载' },
            ],
          },
        },
      },
    });
    const cost = async (title: string) =>
      within((await screen.findByRole('link', { name: title })).closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .find((cell) => cell.dataset.label === '消耗')?.textContent;
    expect(await cost('会员下载')).toBe('VIP 免费原价 8 金币');
    expect(await cost('再次下载')).toBe('已购买');
    expect(await cost('自己的文档')).toBe('我的文档');
    expect(await cost('零价资料')).toBe('免费');
    expect(await cost('待审核资料')).toBe('审核下载');
    expect(await cost('早年的下载')).toBe('免费'); // recorded before the reason was kept
  });
});

describe('/member/reading', () => {
  it('offers 清空全部 only while there is something to clear', async () => {
    let cleared = false;
    renderApp('/member/reading', {
      user: member,
      backend: {
        'GET /api/v1/document/reading/list': () => ({
          status: 200,
          body: cleared
            ? {}
            : {
                total: 1,
                reading: [{ document_id: 5, title: '年度报告', ext: '.pdf', pages: 12, page: 4, category_id: [7] }],
              },
        }),
        'DELETE /api/v1/document/reading/all': () => {
          cleared = true;
          return { status: 200, body: {} };
        },
      },
    });
    expect(await screen.findByRole('link', { name: '年度报告' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '清空全部阅读记录' }));
    await userEvent.click(
      within(screen.getByRole('group', { name: '确定清空全部阅读记录？' })).getByRole('button', { name: '确定' }),
    );
    expect(await screen.findByText('暂无阅读记录')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '清空全部阅读记录' })).toBeNull();
  });

  it('shows each row its 删除 in sight, not only to screen readers', async () => {
    renderApp('/member/reading', {
      user: member,
      backend: {
        'GET /api/v1/document/reading/list': {
          status: 200,
          body: {
            total: 1,
            reading: [{ document_id: 5, title: '年度报告', ext: '.pdf', pages: 12, page: 4, category_id: [7] }],
          },
        },
      },
    });
    const forget = await screen.findByRole('button', { name: '删除“年度报告”的阅读记录' });
    expect(forget.textContent).toBe('删除');
  });

  it('offers no 清空全部 on an empty history', async () => {
    renderApp('/member/reading', {
      user: member,
      backend: { 'GET /api/v1/document/reading/list': { status: 200, body: {} } },
    });
    expect(await screen.findByText('暂无阅读记录')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '清空全部阅读记录' })).toBeNull();
    expect(screen.queryByText('清空全部')).toBeNull();
  });
});

describe('/member', () => {
  it('counts all of the member’s documents under 文档, as 我的文档 lists them, not only the public ones', async () => {
    const { fetchMock } = renderApp('/member', {
      user: member,
      backend: {
        'GET /api/v1/user': { status: 200, body: { ...member, doc_count: 3, article_count: 2 } },
        'GET /api/v1/document/list': (url) =>
          url.searchParams.get('user_id') === String(member.id)
            ? { status: 200, body: { total: 29, document: [{ id: 9, title: '待审核的文档', status: 6 }] } }
            : { status: 400, body: { code: 3, message: '参数错误' } },
      },
    });
    const figure = async (label: string) =>
      (await screen.findByText(label, { selector: 'dt' })).nextElementSibling?.textContent;
    await waitFor(async () => expect(await figure('文档')).toBe('29'));
    expect(await figure('文章')).toBe('2');
    expect(
      fetchMock.mock.calls.filter(
        ([input]) => new URL(String(input), 'http://localhost').pathname === '/api/v1/document/list',
      ),
    ).toHaveLength(1);
  });
});

describe('the header’s user menu', () => {
  const vipOnSale = { ...settings, vip: { enable: true, title: 'VIP 会员', plans: [] } };
  const openMenu = async () => {
    await userEvent.click(await screen.findByTestId('user-menu'));
    return within(await screen.findByRole('menu'));
  };

  it('says at its top who is signed in, with the VIP mark of a VIP member, the keyboard starting on 个人中心', async () => {
    renderApp('/', { user: { ...member, is_vip: true }, settings: vipOnSale });
    const menu = await openMenu();
    const who = menu.getByText('amy').closest('.app-menu__heading') as HTMLElement;
    expect(who.textContent).toBe('amyVIP 会员');
    expect(who.compareDocumentPosition(menu.getAllByRole('menuitem')[0]!)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    await waitFor(() => expect(document.activeElement).toBe(menu.getByRole('menuitem', { name: '个人中心' })));
  });

  it('shows no VIP mark to a member without VIP, nor where VIP is not on sale', async () => {
    renderApp('/', { user: member, settings: vipOnSale });
    let menu = await openMenu();
    expect(menu.getByText('amy').closest('.app-menu__heading')?.textContent).toBe('amy');
    cleanup();
    clearSession();
    renderApp('/', { user: { ...member, is_vip: true } });
    menu = await openMenu();
    expect(menu.getByText('amy').closest('.app-menu__heading')?.textContent).toBe('amy');
  });

  it('drops the VIP mark when the member comes back to the tab after their VIP ended', async () => {
    let vip = true;
    renderApp('/', {
      user: { ...member, is_vip: true },
      settings: vipOnSale,
      backend: { 'GET /api/v1/user': () => ({ status: 200, body: { ...member, is_vip: vip } }) },
    });
    expect(await screen.findByRole('link', { name: 'VIP 会员' })).toBeTruthy();
    // An admin ends the VIP while the tab is in the background.
    vip = false;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByRole('link', { name: '开通会员' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'VIP 会员' })).toBeNull();
    act(() => focusManager.setFocused(undefined));
  });
});

describe('/member 评论', () => {
  it('counts the member’s own comments waiting for review too, not only the approved ones others see', async () => {
    const { fetchMock } = renderApp('/member', {
      user: member,
      backend: {
        'GET /api/v1/user': { status: 200, body: { ...member, comment_count: 0 } },
        'GET /api/v1/comment/list': (url) =>
          url.searchParams.get('user_id') === String(member.id) && !url.searchParams.has('status')
            ? { status: 200, body: { total: 2, comment: [{ id: 5, content: '写得很好！', status: 0 }] } }
            : { status: 400, body: { code: 3, message: '参数错误' } },
      },
    });
    const figure = async (label: string) =>
      (await screen.findByText(label, { selector: 'dt' })).nextElementSibling?.textContent;
    await waitFor(async () => expect(await figure('评论')).toBe('2'));
    expect(
      fetchMock.mock.calls.filter(
        ([input]) => new URL(String(input), 'http://localhost').pathname === '/api/v1/comment/list',
      ),
    ).toHaveLength(1);
  });
});

describe('/member VIP 会员 with an order pending', () => {
  const pendingOrders = (orders: object[]): Backend => ({
    'GET /api/v1/user': { status: 200, body: member },
    'GET /api/v1/vip': { status: 200, body: { user_id: member.id } },
    'GET /api/v1/order/mine': (url) =>
      url.searchParams.getAll('status').join() === '0'
        ? { status: 200, body: { total: orders.length, order: orders.slice(0, Number(url.searchParams.get('size'))) } }
        : { status: 400, body: { code: 3, message: '参数错误' } },
  });
  const vipPanel = async () =>
    within((await screen.findByRole('heading', { name: 'VIP 会员' })).closest('section') as HTMLElement);

  it('says a transfer waits for the admin’s 确认收款, not only 您还不是 VIP 会员', async () => {
    renderApp('/member', {
      user: member,
      backend: pendingOrders([
        { id: 3, order_no: '2026010112000012345678', plan_title: '月度会员', status: 0, provider: 'manual' },
      ]),
    });
    const panel = await vipPanel();
    expect(await panel.findByText('您还不是 VIP 会员')).toBeTruthy();
    expect(
      await panel.findByText(
        (_, node) =>
          node?.tagName === 'P' &&
          node.textContent ===
            '您的订单 2026010112000012345678（月度会员）正在等待管理员确认收款，确认后 VIP 会员即刻生效。查看订单',
      ),
    ).toBeTruthy();
    expect(panel.getByRole('link', { name: '查看订单' }).getAttribute('href')).toBe(
      '/vip/checkout?order_no=2026010112000012345678',
    );
  });

  it('offers 去支付 for an order not yet paid, and 我的订单 for several', async () => {
    const unpaid = { id: 4, order_no: '2026010112000087654321', plan_title: '年度会员', status: 0 };
    const { unmount } = renderApp('/member', { user: member, backend: pendingOrders([unpaid]) });
    const panel = await vipPanel();
    expect((await panel.findByRole('link', { name: '去支付' })).getAttribute('href')).toBe(
      '/vip/checkout?order_no=2026010112000087654321',
    );
    unmount();
    act(() => clearSession());
    renderApp('/member', { user: member, backend: pendingOrders([unpaid, { ...unpaid, id: 5 }]) });
    const again = await vipPanel();
    expect((await again.findByRole('link', { name: '查看我的订单' })).getAttribute('href')).toBe('/member/order');
    expect(again.getByText(/您有 2 笔订单尚未完成。/)).toBeTruthy();
  });
});

describe('/member 每日签到', () => {
  it('says 今日已签到 when the check-in was done elsewhere today, not 每日签到 again', async () => {
    let signedElsewhere = false;
    const { fetchMock } = renderApp('/member', {
      user: member,
      backend: {
        'GET /api/v1/user': { status: 200, body: member },
        'GET /api/v1/user/sign/today': () => ({
          status: 200,
          body: signedElsewhere ? { sign: { id: 1, user_id: member.id, sign_at: 20260101, award: 1 } } : {},
        }),
        'PUT /api/v1/user/sign': () => {
          signedElsewhere = true;
          return { status: 409, body: { code: 6, message: '您今天已经签到过了' } };
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '每日签到' }));
    expect(await screen.findByRole('button', { name: '今日已签到' })).toBeTruthy();
    expect(toasts.value.some((t) => t.title === '签到失败' && t.description === '您今天已经签到过了')).toBe(true);
    // Never MOREDOC's GET /api/v1/user/sign, whose 404 before the day's check-in is an error in the console.
    const moredocSign = fetchMock.mock.calls.filter(
      ([input, init]) =>
        new URL(String(input), 'http://localhost').pathname === '/api/v1/user/sign' &&
        (init?.method ?? 'GET') === 'GET',
    );
    expect(moredocSign).toEqual([]);
  });
});

describe('/member 每日签到 the next day', () => {
  it('offers 每日签到 again when the member comes back to a tab left open since yesterday’s check-in', async () => {
    let signedToday = true;
    renderApp('/member', {
      user: member,
      backend: {
        'GET /api/v1/user': { status: 200, body: member },
        'GET /api/v1/user/sign/today': () => ({
          status: 200,
          body: signedToday ? { sign: { id: 1, user_id: member.id, sign_at: 20260101, award: 1 } } : {},
        }),
      },
    });
    expect(await screen.findByRole('button', { name: '今日已签到' })).toBeTruthy();
    // Midnight passes while the tab is in the background.
    signedToday = false;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByRole('button', { name: '每日签到' })).toBeTruthy();
    act(() => focusManager.setFocused(undefined));
  });

  it('keeps the keyboard on 今日已签到 once 每日签到 is pressed, where the disabled button could not hold it', async () => {
    let signed = false;
    renderApp('/member', {
      user: member,
      backend: {
        'GET /api/v1/user': { status: 200, body: member },
        'GET /api/v1/user/sign/today': () => ({
          status: 200,
          body: signed ? { sign: { id: 1, user_id: member.id, sign_at: 20260101, award: 1 } } : {},
        }),
        'PUT /api/v1/user/sign': () => {
          signed = true;
          return { status: 200, body: { id: 1, user_id: member.id, sign_at: 20260101, award: 1 } };
        },
      },
    });
    (await screen.findByRole('button', { name: '每日签到' })).focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('button', { name: '今日已签到' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('今日已签到'));
    expect(document.activeElement?.matches(':disabled')).toBe(false);
    expect(toasts.value.some((t) => t.title === '签到成功')).toBe(true);
  });
});

describe('/member 最近动态', () => {
  it('pages through all of the member’s dynamics, the credits they earned among them, not only the last ten', async () => {
    const dynamics = Array.from({ length: 12 }, (_, i) => ({
      id: 12 - i,
      content: `签到成功，获得 ${12 - i} 魔豆奖励`,
      created_at: '2026-01-01T00:00:00Z',
    }));
    renderApp('/member', {
      user: member,
      backend: {
        'GET /api/v1/user': { status: 200, body: member },
        'GET /api/v1/user/dynamic': (url) => {
          const [page, size] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))];
          return {
            status: 200,
            body: { total: dynamics.length, dynamic: dynamics.slice((page - 1) * size, page * size) },
          };
        },
      },
    });
    const activity = within(
      (await screen.findByRole('heading', { name: '最近动态' })).closest('section') as HTMLElement,
    );
    expect(await activity.findByText('签到成功，获得 12 魔豆奖励')).toBeTruthy();
    expect(activity.queryByText('签到成功，获得 2 魔豆奖励')).toBeNull();
    await userEvent.click(activity.getByRole('button', { name: '下一页' }));
    expect(await activity.findByText('签到成功，获得 2 魔豆奖励')).toBeTruthy();
    expect(activity.getByText('签到成功，获得 1 魔豆奖励')).toBeTruthy();
    expect(activity.getByText('第 2 / 2 页，共 12 条')).toBeTruthy();
  });

  it('keeps its page in the address: the back from another screen returns to page 2, a page past the last goes to the last', async () => {
    const dynamics = Array.from({ length: 12 }, (_, i) => ({
      id: 12 - i,
      content: `签到成功，获得 ${12 - i} 魔豆奖励`,
      created_at: '2026-01-01T00:00:00Z',
    }));
    const { router } = renderApp('/member?page=9', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/user': { status: 200, body: member },
        'GET /api/v1/user/dynamic': (url) => {
          const [page, size] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))];
          return {
            status: 200,
            body: { total: dynamics.length, dynamic: dynamics.slice((page - 1) * size, page * size) },
          };
        },
      },
    });
    const activity = () => within(screen.getByRole('heading', { name: '最近动态' }).closest('section') as HTMLElement);
    expect(await screen.findByText('签到成功，获得 2 魔豆奖励')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.queryByText('暂无动态')).toBeNull();
    await userEvent.click(activity().getByRole('button', { name: '上一页' }));
    expect(await screen.findByText('签到成功，获得 12 魔豆奖励')).toBeTruthy();
    expect(router.state.location.search).toBe('');
    await userEvent.click(activity().getByRole('button', { name: '下一页' }));
    expect(await screen.findByText('签到成功，获得 2 魔豆奖励')).toBeTruthy();
    await act(() => router.navigate('/member/document'));
    expect(await screen.findByText('暂无文档')).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(await screen.findByText('签到成功，获得 2 魔豆奖励')).toBeTruthy();
    expect(activity().getByText('第 2 / 2 页，共 12 条')).toBeTruthy();
  });
});

describe('/member/favorite', () => {
  it('goes back a page when the last favourite of the last page is removed, instead of saying there are none', async () => {
    let favorites = Array.from({ length: 11 }, (_, i) => ({
      id: 11 - i,
      document_id: 11 - i,
      title: `收藏的文档 ${11 - i}`,
    }));
    renderApp('/member/favorite', {
      user: member,
      backend: {
        'GET /api/v1/favorite/list': (url) => {
          const [page, size] = [Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))];
          return {
            status: 200,
            body: { total: favorites.length, favorite: favorites.slice((page - 1) * size, page * size) },
          };
        },
        'DELETE /api/v1/favorite': (url) => {
          const removed = url.searchParams.getAll('id').map(Number);
          favorites = favorites.filter((f) => !removed.includes(f.id));
          return { status: 200, body: {} };
        },
      },
    });
    expect(await screen.findByText('收藏的文档 11')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    await userEvent.click(await screen.findByRole('button', { name: '取消收藏“收藏的文档 1”' }));
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByText('收藏的文档 11')).toBeTruthy();
    expect(screen.getByText('收藏的文档 2')).toBeTruthy();
    expect(screen.queryByText('暂无收藏的文档')).toBeNull();
  });
});

describe('/member/profile unsaved', () => {
  it('asks before a move to another screen drops what was typed, and asks nothing once it is saved', async () => {
    const { router } = renderApp('/member/profile', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/user': { status: 200, body: member },
        'PUT /api/v1/user/profile': { status: 200, body: {} },
      },
    });
    const signature = await screen.findByLabelText('个性签名');
    // Untouched: leaving asks nothing.
    await act(() => router.navigate('/member/document'));
    expect(await screen.findByText('暂无文档')).toBeTruthy();
    await act(() => router.navigate('/member/profile'));

    await userEvent.type(await screen.findByLabelText('个性签名'), '热爱阅读');
    expect(signature.isConnected).toBe(false);
    await act(() => router.navigate('/member/document'));
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    expect(ask.textContent).toContain('个人资料还没有保存');
    expect(router.state.location.pathname).toBe('/member/profile');
    await userEvent.click(within(ask).getByRole('button', { name: '留下继续编辑' }));
    expect((screen.getByLabelText('个性签名') as HTMLInputElement).value).toBe('热爱阅读');

    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '修改成功')).toBe(true));
    await act(() => router.navigate('/member/document'));
    expect(await screen.findByText('暂无文档')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('/member/profile avatar', () => {
  it('names every image format it takes, BMP included, in its hint as in its refusal', async () => {
    renderApp('/member/profile', { user: member, backend: { 'GET /api/v1/user': { status: 200, body: member } } });
    expect(await screen.findByText('支持 JPG、PNG、GIF、WEBP、BMP，不超过 5 MB')).toBeTruthy();
    await userEvent.upload(
      screen.getByLabelText('选择头像图片'),
      new File(['hello'], 'avatar.txt', { type: 'text/plain' }),
      { applyAccept: false },
    );
    expect(await screen.findByText('请上传 JPG、PNG、GIF、WEBP、BMP 格式的图片')).toBeTruthy();
  });

  it('shows one 头像上传失败 for refusals in a row, and none once an image is uploaded', async () => {
    renderApp('/member/profile', {
      user: member,
      backend: {
        'GET /api/v1/user': { status: 200, body: member },
        'POST /api/v1/upload/avatar': { status: 200, body: { code: 200, data: { id: 7, path: '/uploads/me.png' } } },
      },
    });
    const input = await screen.findByLabelText('选择头像图片');
    // Held open (as under the pointer), so that only the page closes them, not their 5 s.
    const failures = () => {
      for (const t of toasts.value) pauseToast(t.id);
      return toasts.value.filter((t) => t.open && t.title === '头像上传失败').map((t) => t.description);
    };
    await userEvent.upload(input, new File(['hello'], 'avatar.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(failures()).toEqual(['请上传 JPG、PNG、GIF、WEBP、BMP 格式的图片']);
    await userEvent.upload(input, new File([new Uint8Array(6 * 1024 * 1024)], 'big.png', { type: 'image/png' }));
    expect(failures()).toEqual(['头像图片不能超过 5 MB']);
    await userEvent.upload(input, new File(['png'], 'me.png', { type: 'image/png' }));
    await waitFor(() => expect(toasts.value.some((t) => t.open && t.title === '头像已更新')).toBe(true));
    expect(failures()).toEqual([]);
  });
});

describe('the header bell', () => {
  it('counts again when the member comes back to the tab: a reply or review may have come meanwhile', async () => {
    let count = 0;
    renderApp('/member/message', {
      user: member,
      backend: {
        'GET /api/v1/message/list': { status: 200, body: { total: 0, unread: 0, message: [] } },
        'GET /api/v1/message/unread': () => ({ status: 200, body: { count } }),
      },
    });
    await screen.findByText('暂无消息');
    expect(screen.getAllByRole('link', { name: '消息' }).length).toBeGreaterThan(0);
    count = 2;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect((await screen.findAllByRole('link', { name: '消息，2 条未读' })).length).toBeGreaterThan(0);
    act(() => focusManager.setFocused(undefined));
  });
});
