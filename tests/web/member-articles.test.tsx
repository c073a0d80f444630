// 我的文章 and the member's article form inside the real route tree, against a scripted
// backend: the list with each status, its loading, empty and error states, delete confirmed in
// place, the publish right and its refusal, the checks made before sending, and what creating
// and editing send and say.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article } from '../../shared/types/article';
import type { Category } from '../../shared/types/category';
import { categoryListQuery } from '../../web/src/features/category/api';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { member, holdCalls, renderApp, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const published: Article = {
  id: 5,
  identifier: 'a1b2c3d4e5f6a7b8',
  title: '我的第一篇文章',
  status: 1,
  user_id: 2,
  view_count: 12,
  created_at: '2024-05-01T10:00:00Z',
};
const pending: Article = {
  id: 6,
  identifier: 'b1b2c3d4e5f6a7b8',
  title: '等待审核的文章',
  status: 0,
  user_id: 2,
  created_at: '2024-05-02T10:00:00Z',
};
const rejected: Article = {
  id: 7,
  identifier: 'c1b2c3d4e5f6a7b8',
  title: '被拒绝的文章',
  status: 2,
  reject_reason: '内容与主题无关',
  user_id: 2,
  created_at: '2024-05-03T10:00:00Z',
};

const articleCategories: Category[] = [
  { id: 7, title: '教育资料', type: 0, enable: true, parent_id: 0 },
  { id: 21, title: '站内公告', type: 1, enable: true, parent_id: 0 },
  { id: 22, title: '使用帮助', type: 1, enable: true, parent_id: 0 },
];

const requests = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (init?.method ?? 'GET') === method && new URL(String(url), 'http://localhost').pathname === path,
  );
const queryOf = (call: unknown[] | undefined) => new URL(String(call?.[0]), 'http://localhost').searchParams;
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body)) as Record<string, unknown>;
const toasted = (title: string) => waitFor(() => expect(toasts.value.some((t) => t.title === title)).toBe(true));

const allowed: Backend = { 'GET /api/v1/user/canipublisharticle': { status: 200, body: {} } };
const refused: Backend = {
  'GET /api/v1/user/canipublisharticle': {
    status: 403,
    body: { code: 7, message: '您已被禁止发布文章，原因：发布广告' },
  },
};

function listBackend(articles: Article[], extra: Backend = {}): Backend {
  return {
    ...allowed,
    'GET /api/v1/article/list': { status: 200, body: { article: articles, total: articles.length } },
    ...extra,
  };
}

/** The app at `path` with the article categories known, as the start data brings them. */
function renderWithCategories(path: string, backend: Backend) {
  const view = renderApp(path, { user: member, backend });
  view.queryClient.setQueryData(categoryListQuery().queryKey, articleCategories);
  return view;
}

describe('我的文章', () => {
  it('shows a skeleton while loading (never 暂无文章), then each article with its status, link and reject reason', async () => {
    const { fetchMock } = renderApp('/member/article', {
      user: member,
      backend: listBackend([published, pending, rejected]),
    });
    const release = holdCalls(fetchMock);
    expect(await screen.findByRole('heading', { name: '我的文章', level: 1 })).toBeTruthy();
    expect(document.querySelector('[class*="semi-skeleton"]')).not.toBeNull();
    expect(screen.queryByText('暂无文章')).toBeNull();
    release();

    const table = await screen.findByRole('table', { name: '我的文章' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByRole('link', { name: '我的第一篇文章' }).getAttribute('href')).toBe(
      '/article/detail/a1b2c3d4e5f6a7b8',
    );
    expect(within(rows[0]!).getByText('已发布')).toBeTruthy();
    expect(within(rows[1]!).getByText('待审核')).toBeTruthy();
    expect(within(rows[1]!).queryByRole('link', { name: '等待审核的文章' })).toBeNull();
    expect(within(rows[2]!).getByText('审核拒绝')).toBeTruthy();
    expect(within(rows[2]!).getByText('拒绝原因：内容与主题无关')).toBeTruthy();
    expect(within(rows[2]!).getByRole('link', { name: '编辑“被拒绝的文章”' }).getAttribute('href')).toBe(
      '/member/article/set?id=7',
    );
    expect(screen.getByRole('link', { name: '写文章' }).getAttribute('href')).toBe('/member/article/set');

    // Only the caller's own, in every status.
    const query = queryOf(requests(fetchMock, 'GET', '/api/v1/article/list')[0]);
    expect(query.getAll('user_id')).toEqual(['2']);
    expect(query.getAll('status')).toEqual([]);
  });

  it('is in the member menu and the header’s user menu', async () => {
    renderApp('/member/article', { user: member, backend: listBackend([]) });
    const menu = await screen.findByRole('navigation', { name: '个人中心菜单' });
    expect(within(menu).getByRole('link', { name: '我的文章' }).getAttribute('href')).toBe('/member/article');
    await userEvent.click(screen.getByRole('button', { name: /amy/ }));
    expect(await screen.findByRole('menuitem', { name: '我的文章' })).toBeTruthy();
  });

  it('says when there are no articles yet', async () => {
    renderApp('/member/article', { user: member, backend: listBackend([]) });
    expect(await screen.findByText('暂无文章')).toBeTruthy();
    expect(screen.getByRole('link', { name: '写文章' })).toBeTruthy();
  });

  it('offers 重试 when the list fails', async () => {
    renderApp('/member/article', {
      user: member,
      backend: {
        ...allowed,
        'GET /api/v1/article/list': { status: 500, body: { code: 13, message: '服务器内部错误，请稍后再试' } },
      },
    });
    expect(await screen.findByText('服务器内部错误，请稍后再试')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
  });

  it('says why instead of 写文章 when the member may not write articles', async () => {
    renderApp('/member/article', { user: member, backend: listBackend([published], refused) });
    expect(await screen.findByText('暂时不能写文章：您已被禁止发布文章，原因：发布广告')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '写文章' })).toBeNull();
    expect(await screen.findByRole('link', { name: '我的第一篇文章' })).toBeTruthy();
  });

  it('deletes an article after the confirmation in place', async () => {
    const { fetchMock } = renderApp('/member/article', {
      user: member,
      backend: listBackend([published, pending], { 'DELETE /api/v1/article': { status: 200, body: {} } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '删除“等待审核的文章”' }));
    expect(requests(fetchMock, 'DELETE', '/api/v1/article')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await toasted('删除成功');
    expect(queryOf(requests(fetchMock, 'DELETE', '/api/v1/article')[0]).getAll('id')).toEqual(['6']);
    // The list is asked again.
    await waitFor(() => expect(requests(fetchMock, 'GET', '/api/v1/article/list').length).toBeGreaterThan(1));
  });
});

describe('写文章', () => {
  it('refuses with the server’s reason instead of the form', async () => {
    renderApp('/member/article/set', { user: member, backend: refused });
    expect(await screen.findByText('暂时不能写文章')).toBeTruthy();
    expect(screen.getByText('您已被禁止发布文章，原因：发布广告')).toBeTruthy();
    expect(screen.queryByRole('form', { name: '发布文章' })).toBeNull();
    expect(screen.getByRole('link', { name: '返回我的文章' }).getAttribute('href')).toBe('/member/article');
  });

  it('checks the title and the body as the server does, and has no identifier or recommend field', async () => {
    const { fetchMock } = renderWithCategories('/member/article/set', allowed);
    const form = await screen.findByRole('form', { name: '发布文章' });
    expect(screen.getByRole('heading', { name: '写文章', level: 1 })).toBeTruthy();
    expect(within(form).queryByLabelText('文章标识')).toBeNull();
    expect(within(form).queryByLabelText('推荐')).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: '发布' }));
    expect(await within(form).findByText('文章标题不能为空')).toBeTruthy();
    expect(within(form).getByText('文章内容不能为空')).toBeTruthy();
    await userEvent.type(within(form).getByLabelText('标题'), '标'.repeat(201));
    await userEvent.click(within(form).getByRole('button', { name: '发布' }));
    expect(await within(form).findByText('文章标题长度不能超过 200 个字符')).toBeTruthy();
    expect(requests(fetchMock, 'POST', '/api/v1/article')).toHaveLength(0);
  });

  it('takes the keyboard to the first field a save refuses, the body’s editor too, its message tied to it', async () => {
    renderWithCategories('/member/article/set', allowed);
    const form = within(await screen.findByRole('form', { name: '发布文章' }));
    await userEvent.click(form.getByRole('button', { name: '发布' }));
    const title = form.getByLabelText('标题');
    await waitFor(() => expect(document.activeElement).toBe(title));
    await userEvent.type(title, '读书笔记');
    await userEvent.click(form.getByRole('button', { name: '发布' }));
    const body = form.getByRole('textbox', { name: '内容' });
    await waitFor(() => expect(document.activeElement).toBe(body));
    expect(body.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(body.getAttribute('aria-describedby') ?? '')?.textContent).toBe('文章内容不能为空');
  });

  it('sends a new article without identifier or recommendation, then says it awaits review in 我的文章', async () => {
    const { fetchMock, router } = renderWithCategories('/member/article/set', {
      ...listBackend([pending]),
      'POST /api/v1/article': { status: 200, body: { ...pending, title: '新文章' } },
    });
    const form = await screen.findByRole('form', { name: '发布文章' });
    await userEvent.type(within(form).getByLabelText('标题'), '新文章');
    await userEvent.type(within(form).getByLabelText('关键字'), '公告, 帮助');
    await userEvent.type(within(form).getByLabelText('摘要'), '一段摘要');
    const editor = within(form).getByRole('textbox', { name: '内容' });
    await userEvent.click(editor);
    await userEvent.type(editor, '第一段正文。');
    // The categories are a group of checkboxes: the article categories only, not the document ones.
    const categories = within(form).getByRole('group', { name: '分类' });
    expect(
      within(categories)
        .getAllByRole('checkbox')
        .map((box) => box.closest('label')?.textContent),
    ).toEqual(['站内公告', '使用帮助']);
    await userEvent.click(within(categories).getByRole('checkbox', { name: '使用帮助' }));
    expect((within(categories).getByRole('checkbox', { name: '使用帮助' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(within(form).getByRole('button', { name: '发布' }));

    await toasted('文章已提交，等待审核');
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/article'));
    const body = bodyOf(requests(fetchMock, 'POST', '/api/v1/article')[0]);
    expect(body).toMatchObject({ title: '新文章', keywords: '公告, 帮助', description: '一段摘要', category_id: [22] });
    expect(String(body.content)).toContain('第一段正文。');
    expect(body).not.toHaveProperty('identifier');
    expect(body).not.toHaveProperty('is_recommend');
    expect(await screen.findByRole('heading', { name: '我的文章', level: 1 })).toBeTruthy();
  });

  it('says 文章已发布 when the member’s group publishes without review', async () => {
    renderWithCategories('/member/article/set', {
      ...listBackend([published]),
      'POST /api/v1/article': { status: 200, body: { ...published, title: '直接发布' } },
    });
    const form = await screen.findByRole('form', { name: '发布文章' });
    await userEvent.type(within(form).getByLabelText('标题'), '直接发布');
    const editor = within(form).getByRole('textbox', { name: '内容' });
    await userEvent.click(editor);
    await userEvent.type(editor, '正文');
    await userEvent.click(within(form).getByRole('button', { name: '发布' }));
    await toasted('文章已发布');
  });

  it('asks before leaving a form with unsaved changes, and leaves only on 离开', async () => {
    const { router } = renderWithCategories('/member/article/set', listBackend([published]));
    const form = await screen.findByRole('form', { name: '发布文章' });
    // Untouched: leaving asks nothing.
    await act(() => router.navigate('/member/article'));
    expect(await screen.findByRole('heading', { name: '我的文章', level: 1 })).toBeTruthy();
    await act(() => router.navigate('/member/article/set'));
    const again = await screen.findByRole('form', { name: '发布文章' });
    expect(again).not.toBe(form);

    await userEvent.type(within(again).getByLabelText('标题'), '写了一半');
    await act(() => router.navigate('/member/article'));
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    expect(ask.textContent).toContain('文章还没有保存');
    expect(router.state.location.pathname).toBe('/member/article/set');
    await userEvent.click(within(ask).getByRole('button', { name: '留下继续编辑' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((within(again).getByLabelText('标题') as HTMLInputElement).value).toBe('写了一半');

    await act(() => router.navigate('/member/article'));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: '离开' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/article'));
  });
});

describe('leaving 写文章 by keyboard', () => {
  it('answers the question 留下 on Escape, and 留下 gives the focus back to the link followed', async () => {
    const { router } = renderWithCategories('/member/article/set', listBackend([published]));
    const form = await screen.findByRole('form', { name: '发布文章' });
    await userEvent.type(within(form).getByLabelText('标题'), '写了一半');
    const link = within(screen.getByRole('navigation', { name: '个人中心菜单' })).getByRole('link', {
      name: '我的文章',
    });
    link.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alertdialog', { name: '离开此页' })));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/member/article/set');
    expect(document.activeElement).toBe(link);
    await userEvent.keyboard('{Enter}');
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    within(ask).getByRole('button', { name: '留下继续编辑' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(link);
  });
});

describe('编辑文章', () => {
  it('edits the member’s rejected article, which goes back to review', async () => {
    let stored: Article = {
      ...rejected,
      content: '<p>原来的正文</p>',
      category_id: [21],
      category: [{ id: 21, title: '站内公告', parent_id: 0 }],
    };
    const { fetchMock, router } = renderWithCategories('/member/article/set?id=7', {
      ...listBackend([rejected]),
      'GET /api/v1/article': () => ({ status: 200, body: stored }),
      'PUT /api/v1/article': () => {
        stored = { ...stored, status: 0, reject_reason: '' };
        return { status: 200, body: {} };
      },
    });
    const form = await screen.findByRole('form', { name: '编辑文章' });
    expect(screen.getByRole('heading', { name: '编辑文章', level: 1 })).toBeTruthy();
    expect(within(form).getByText('拒绝原因：内容与主题无关。修改后保存会重新提交审核。')).toBeTruthy();
    const title = within(form).getByLabelText('标题') as HTMLInputElement;
    expect(title.value).toBe('被拒绝的文章');
    expect(within(form).getByText('原来的正文')).toBeTruthy();
    await userEvent.clear(title);
    await userEvent.type(title, '改好的文章');
    await userEvent.click(within(form).getByRole('button', { name: '保存' }));

    await toasted('文章已提交，等待审核');
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/article'));
    const body = bodyOf(requests(fetchMock, 'PUT', '/api/v1/article')[0]);
    expect(body).toMatchObject({ id: 7, title: '改好的文章', category_id: [21], content: '<p>原来的正文</p>' });
    expect(body).not.toHaveProperty('identifier');
  });

  it('does not offer someone else’s article for editing', async () => {
    renderWithCategories('/member/article/set?id=9', {
      'GET /api/v1/article': { status: 200, body: { ...published, id: 9, user_id: 3, content: '<p>别人的</p>' } },
    });
    expect(await screen.findByText('不能编辑这篇文章')).toBeTruthy();
    expect(screen.queryByRole('form', { name: '编辑文章' })).toBeNull();
  });

  it('offers 重试 when the article cannot be loaded', async () => {
    renderWithCategories('/member/article/set?id=9', {
      'GET /api/v1/article': { status: 404, body: { code: 5, message: '文章不存在' } },
    });
    expect(await screen.findByText('文章不存在')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
  });
});
