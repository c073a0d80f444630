// The shared admin resource screen, driven by a small described resource against a fake
// backend answering through the real API client (mocked fetch).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { api, unwrap } from '../../web/src/api/client';
import { createQueryClient, invalidateAfter } from '../../web/src/api/query-client';
import { ActionDialog } from '../../web/src/kit/admin-resource/ActionDialog';
import { dateTimeRender } from '../../web/src/kit/admin-resource/DateTimeInput';
import { FilterBar } from '../../web/src/kit/admin-resource/FilterBar';
import { ListPager } from '../../web/src/kit/admin-resource/ListPager';
import type { FilterValues, FormValues, ResourceDef } from '../../web/src/kit/admin-resource/resource';
import { ResourceScreen } from '../../web/src/kit/admin-resource/ResourceScreen';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { Select } from '../../web/src/ui/semi-admin';
import { UiProvider } from '../../web/src/ui/UiProvider';
import { usersField } from '../../web/src/features/user/UserPicker';

interface Book {
  id?: number;
  title?: string;
  pages?: number;
  enable?: boolean;
}

type Values = { title: string; pages: number | undefined; enable: boolean };

/** A stateful fake of a MOREDOC-style resource: list (page, size, wd), create, update, delete. */
function fakeBackend(count: number) {
  let books: Book[] = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    title: `书籍${i + 1}`,
    pages: 100 + i,
    enable: true,
  }));
  let nextId = count + 1;
  const failNextSave = { message: '' };
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (method === 'GET' && url.pathname === '/api/v1/book/list') {
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('size'));
      const wd = url.searchParams.get('wd') ?? '';
      const matching = books.filter((b) => (b.title ?? '').includes(wd));
      return json(200, { book: matching.slice((page - 1) * size, page * size), total: matching.length });
    }
    if ((method === 'POST' || method === 'PUT') && url.pathname === '/api/v1/book') {
      if (failNextSave.message) {
        const message = failNextSave.message;
        failNextSave.message = '';
        return json(409, { code: 6, message, error: message });
      }
      const body = JSON.parse(String(init.body)) as Book;
      if (method === 'POST') books = [{ ...body, id: nextId++ }, ...books];
      else books = books.map((b) => (b.id === body.id ? { ...b, ...body } : b));
      return json(200, {});
    }
    if (method === 'DELETE' && url.pathname === '/api/v1/book') {
      const ids = url.searchParams.getAll('id').map(Number);
      books = books.filter((b) => !ids.includes(b.id ?? 0));
      return json(200, {});
    }
    return json(404, { code: 5, message: 'not found' });
  });
  return { fetchMock, failNextSave, books: () => books };
}

const bookResource: ResourceDef<Book, Values> = {
  key: 'book',
  title: '图书管理',
  noun: '图书',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.title ?? '',
  columns: [
    { key: 'id', title: 'ID' },
    { key: 'title', title: '书名' },
    { key: 'pages', title: '页数' },
  ],
  filters: [{ kind: 'keyword', name: 'wd', label: '关键字' }],
  listKey: ['book', 'admin'],
  list: async ({ page, size, filters }) => {
    const data = unwrap(
      await api.get<{ book?: Book[]; total?: number }>('/api/v1/book/list', {
        page,
        size,
        wd: filters.wd as string | undefined,
      }),
    );
    return { rows: data.book ?? [], total: data.total ?? 0 };
  },
  form: {
    fields: [
      { name: 'title', label: '书名', kind: 'text', required: true, maxLength: 10 },
      { name: 'pages', label: '页数', kind: 'number', integer: true, min: 1 },
      { name: 'enable', label: '上架', kind: 'switch' },
    ],
    initial: (row) => ({ title: row?.title ?? '', pages: row?.pages, enable: row ? row.enable === true : true }),
  },
  // Like a feature's writes: each marks the book queries stale, the screen's list among them.
  create: (v, context) =>
    invalidateAfter(api.post('/api/v1/book', { title: v.title, pages: v.pages, enable: v.enable }), context, [
      ['book'],
    ]),
  update: (v, row, context) =>
    invalidateAfter(
      api.put('/api/v1/book', { id: row.id, title: v.title, pages: v.pages, enable: v.enable }),
      context,
      [['book']],
    ),
  remove: (ids, _confirmation, context) =>
    invalidateAfter(api.delete('/api/v1/book', { id: ids }), context, [['book']]),
};

/** The book screen at `/books` (a memory router: its address and history are the list's). */
function renderBookScreen(at = '/books', resource = bookResource) {
  const router = createMemoryRouter(
    [
      { path: '/books', element: <ResourceScreen resource={resource} /> },
      { path: '/elsewhere', element: <p>别处</p> },
    ],
    { initialEntries: [at] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <UiProvider>
        <RouterProvider router={router} />
      </UiProvider>
    </QueryClientProvider>,
  );
  return router;
}

/** The book screen against a fake backend holding `count` books. */
function renderScreen(count = 23, at?: string, resource = bookResource) {
  const backend = fakeBackend(count);
  api.configure({ fetch: backend.fetchMock as unknown as typeof fetch });
  const router = renderBookScreen(at, resource);
  return { ...backend, router };
}

const calls = (fetchMock: ReturnType<typeof fakeBackend>['fetchMock'], method: string) =>
  fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') === method)
    .map(([url, init]) => ({ url: new URL(url, 'http://localhost'), init }));

/** Body rows of the list (Semi's table is a `grid`). */
const bodyRows = () =>
  within(screen.getByRole('grid'))
    .getAllByRole('row')
    .filter((r) => r.closest('tbody'));
const sheetRoot = () => document.querySelector('.semi-sidesheet-inner') as HTMLElement;
const toastTitles = () => toasts.value.map((t) => t.title);

// Semi's table and side sheet render slowly in happy-dom on a busy machine.
beforeEach(() => clearToasts());
afterEach(() => act(() => clearToasts()));

describe('admin resource screen', () => {
  it('lists the first page with the total and pages through the list', async () => {
    const { fetchMock } = renderScreen(23);
    expect(await screen.findByText('书籍1')).toBeTruthy();
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText(/共 23 条/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '第 3 页' }));
    expect(await screen.findByText('书籍21')).toBeTruthy();
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    const pageParams = calls(fetchMock, 'GET').map(({ url }) => url.searchParams.get('page'));
    expect(pageParams).toEqual(['1', '3']);
  });

  it('names its paging in Chinese, and turns pages and changes the page size by keyboard', async () => {
    const { fetchMock } = renderScreen(23);
    await screen.findByText('书籍1');
    const paging = screen.getByRole('navigation', { name: '分页' });
    expect(
      within(paging)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['上一页', '第 1 页', '第 2 页', '第 3 页', '下一页']);
    expect(screen.getByText('显示第 1 条-第 10 条，共 23 条')).toBeTruthy();
    // No English name anywhere on the screen (Semi's: "Previous", "Page 2", "Page size selector").
    const english = [...document.querySelectorAll('[aria-label]')]
      .map((element) => element.getAttribute('aria-label') ?? '')
      .filter((label) => /^[A-Za-z][A-Za-z ]+\d*$/.test(label));
    expect(english).toEqual([]);

    within(paging).getByRole('button', { name: '下一页' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('书籍11')).toBeTruthy();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('书籍21')).toBeTruthy();
    // 下一页 turned disabled on the last page: the keyboard is on the current page's number, not lost.
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('第 3 页'));
    expect(screen.getByText('显示第 21 条-第 23 条，共 23 条')).toBeTruthy();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: '每页条数' }), '20 条/页');
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    const last = calls(fetchMock, 'GET').at(-1)?.url;
    expect([last?.searchParams.get('page'), last?.searchParams.get('size')]).toEqual(['1', '20']);
  });

  it('filters by keyword from the first page and resets the filter', async () => {
    const { fetchMock } = renderScreen(23);
    await screen.findByText('书籍1');
    await userEvent.click(screen.getByRole('button', { name: '第 2 页' }));
    await screen.findByText('书籍11');
    await userEvent.type(screen.getByLabelText('关键字'), '书籍2{Enter}');
    await waitFor(() => expect(screen.queryByText('书籍11')).toBeNull());
    // 书籍2 and 书籍20…23
    await waitFor(() => expect(bodyRows()).toHaveLength(5));
    const last = calls(fetchMock, 'GET').at(-1)?.url;
    expect(last?.searchParams.get('wd')).toBe('书籍2');
    expect(last?.searchParams.get('page')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(10));
  });

  it('keeps its page and filter in the address, so that coming back shows the same rows', async () => {
    const { fetchMock, router } = renderScreen(23);
    await screen.findByText('书籍1');
    await userEvent.type(screen.getByLabelText('关键字'), '书籍{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?wd=%E4%B9%A6%E7%B1%8D'));
    await userEvent.click(screen.getByRole('button', { name: '第 3 页' }));
    expect(await screen.findByText('书籍21')).toBeTruthy();
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('3');

    // Away (an edit screen) and back: page 3 of the filtered list, the keyword in its box.
    await act(() => router.navigate('/elsewhere'));
    expect(await screen.findByText('别处')).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(await screen.findByText('书籍21')).toBeTruthy();
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('书籍');
    const last = calls(fetchMock, 'GET').at(-1)?.url;
    expect(last?.searchParams.get('page')).toBe('3');
    expect(last?.searchParams.get('wd')).toBe('书籍');

    // Back once more: the first page again.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.queryByText('书籍21')).toBeNull());
    expect(await screen.findByText('书籍1')).toBeTruthy();
  });

  it('opens at the page, size and filter its address names, and ignores a size it does not offer', async () => {
    const { fetchMock } = renderScreen(23, '/books?wd=%E4%B9%A6%E7%B1%8D2&page=2&size=20');
    await waitFor(() => expect(calls(fetchMock, 'GET')).toHaveLength(1));
    const first = calls(fetchMock, 'GET')[0]!.url;
    expect([first.searchParams.get('page'), first.searchParams.get('size'), first.searchParams.get('wd')]).toEqual([
      '2',
      '20',
      '书籍2',
    ]);
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('书籍2');
    cleanup();

    const odd = renderScreen(23, '/books?size=7&page=x');
    await waitFor(() => expect(calls(odd.fetchMock, 'GET')).toHaveLength(1));
    const url = calls(odd.fetchMock, 'GET')[0]!.url;
    expect([url.searchParams.get('page'), url.searchParams.get('size')]).toEqual(['1', '10']);
  });

  it('opens an address whose filters it could not have written unfiltered by them, not broken', async () => {
    const asked: FilterValues[] = [];
    const resource: ResourceDef<Book, Values> = {
      ...bookResource,
      filters: [
        { kind: 'keyword', name: 'wd', label: '关键字' },
        {
          kind: 'select',
          name: 'enable',
          label: '状态',
          options: [
            { value: 1, label: '上架' },
            { value: 0, label: '下架' },
          ],
        },
        { kind: 'date-range', name: 'created', label: '上架时间', from: 'createdFrom', to: 'createdTo' },
      ],
      list: (query) => {
        asked.push(query.filters);
        return bookResource.list(query);
      },
    };
    // A mangled link (before, the date picker threw and the whole screen was 出错啦！, and a select
    // sent its text to the server, which answered 400).
    renderScreen(23, '/books?enable=abc&createdFrom=xyz&createdTo=2020&wd=%E4%B9%A6', resource);
    expect(await screen.findByText('书籍1')).toBeTruthy();
    expect(asked.at(-1)).toEqual({ wd: '书' });
    cleanup();

    asked.length = 0;
    renderScreen(
      23,
      '/books?enable=0&createdFrom=2024-04-30T16:00:00.000Z&createdTo=2024-05-02T16:00:00.000Z',
      resource,
    );
    await waitFor(() => expect(asked.length).toBeGreaterThan(0));
    expect(asked.at(-1)).toEqual({
      enable: 0,
      createdFrom: '2024-04-30T16:00:00.000Z',
      createdTo: '2024-05-02T16:00:00.000Z',
    });
    expect(screen.getByPlaceholderText('开始日期')).toBeTruthy();
  });

  it('draws no 操作 column when the user may run none of its commands on any row', async () => {
    const lend = (requires?: string) => ({
      key: 'lend',
      label: '借出',
      confirm: '确定借出吗？',
      run: () => Promise.resolve({ ok: true as const, status: 200 as const, data: {} }),
      success: '已借出',
      requires,
    });
    const readOnly = (requires?: string): ResourceDef<Book, Values> => ({
      ...bookResource,
      create: undefined,
      update: undefined,
      remove: undefined,
      rowCommands: () => [lend(requires)],
    });
    // Without the permission (no check is provided here, so nothing that names one is offered).
    renderScreen(3, undefined, readOnly('/api.v1.BookAPI/LendBook'));
    expect(await screen.findByText('书籍1')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: '操作' })).toBeNull();
    cleanup();

    renderScreen(3, undefined, readOnly());
    expect(await screen.findByText('书籍1')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '借出“书籍1”' })).toBeTruthy();
  });

  it('draws no 操作 column when the feature says its row actions need permissions the user holds none of', async () => {
    const readOnly = (rowActionsRequire?: readonly string[]): ResourceDef<Book, Values> => ({
      ...bookResource,
      create: undefined,
      update: undefined,
      remove: undefined,
      // As a feature's own buttons do: each checks its permission and renders nothing without it.
      rowActions: () => null,
      rowActionsRequire,
    });
    renderScreen(3, undefined, readOnly(['/api.v1.BookAPI/LendBook']));
    expect(await screen.findByText('书籍1')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: '操作' })).toBeNull();
    cleanup();

    renderScreen(3, undefined, readOnly());
    expect(await screen.findByText('书籍1')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeTruthy();
  });

  it('shows Chinese messages and sends nothing while the form is invalid', async () => {
    const { fetchMock } = renderScreen(3);
    await screen.findByText('书籍1');
    await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
    const sheet = within(sheetRoot());
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    expect(sheet.getByText('请输入书名')).toBeTruthy();
    await userEvent.type(sheet.getByLabelText('书名'), '一本名字非常非常长的书啊');
    await userEvent.type(sheet.getByLabelText('页数'), '0');
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    expect(sheet.getByText('书名不能超过 10 个字符')).toBeTruthy();
    expect(sheet.getByText('页数不能小于 1')).toBeTruthy();
    expect(calls(fetchMock, 'POST')).toHaveLength(0);
  });

  it('creates a row, toasts, closes the sheet and refreshes the list', async () => {
    const { fetchMock } = renderScreen(3);
    await screen.findByText('书籍1');
    await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
    const sheet = within(sheetRoot());
    await userEvent.type(sheet.getByLabelText('书名'), '红楼梦');
    await userEvent.type(sheet.getByLabelText('页数'), '1200');
    await userEvent.click(sheet.getByRole('switch'));
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    expect(await screen.findByText('红楼梦')).toBeTruthy();
    expect(toastTitles()).toContain('创建成功');
    await waitFor(() => expect(document.querySelector('.semi-sidesheet-inner')).toBeNull());
    expect(JSON.parse(String(calls(fetchMock, 'POST')[0]?.init?.body))).toEqual({
      title: '红楼梦',
      pages: 1200,
      enable: false,
    });
  });

  it('keeps a half-filled sheet open on a click beside it; an untouched one closes', async () => {
    renderScreen(3);
    await screen.findByText('书籍1');
    const mask = () => document.querySelector('.semi-sidesheet-mask') as HTMLElement;

    await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
    await userEvent.click(mask());
    await waitFor(() => expect(document.querySelector('.semi-sidesheet-inner')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
    await userEvent.type(within(sheetRoot()).getByLabelText('书名'), '红楼梦');
    await userEvent.click(mask());
    expect((within(sheetRoot()).getByLabelText('书名') as HTMLInputElement).value).toBe('红楼梦');
    // 取消 still closes it: leaving is then a choice.
    await userEvent.click(within(sheetRoot()).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(document.querySelector('.semi-sidesheet-inner')).toBeNull());
  });

  it('closes an untouched sheet with Escape, keeps a half-filled one, and gives the keyboard back to its opener', async () => {
    renderScreen(3);
    await screen.findByText('书籍1');
    const opener = screen.getByRole('button', { name: /新建图书/ });
    await userEvent.click(opener);
    expect(sheetRoot()).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(document.querySelector('.semi-sidesheet-inner')).toBeNull());
    expect(document.activeElement).toBe(opener);

    const edit = screen.getByRole('button', { name: '编辑“书籍2”' });
    await userEvent.click(edit);
    const title = within(sheetRoot()).getByLabelText('书名') as HTMLInputElement;
    await userEvent.type(title, '（下）');
    await userEvent.keyboard('{Escape}');
    expect(title.value).toBe('书籍2（下）');
    // ✕ closes it, the keyboard back on 编辑.
    await userEvent.click(within(sheetRoot()).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(document.querySelector('.semi-sidesheet-inner')).toBeNull());
    expect(document.activeElement).toBe(edit);
  });

  it('edits a row with its values filled in', async () => {
    const { fetchMock } = renderScreen(3);
    await screen.findByText('书籍2');
    await userEvent.click(screen.getByRole('button', { name: '编辑“书籍2”' }));
    const sheet = within(sheetRoot());
    const title = sheet.getByLabelText('书名') as HTMLInputElement;
    expect(title.value).toBe('书籍2');
    expect((sheet.getByLabelText('页数') as HTMLInputElement).value).toBe('101');
    await userEvent.clear(title);
    await userEvent.type(title, '西游记');
    await userEvent.click(sheet.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('西游记')).toBeTruthy();
    expect(toastTitles()).toContain('保存成功');
    expect(JSON.parse(String(calls(fetchMock, 'PUT')[0]?.init?.body))).toEqual({
      id: 2,
      title: '西游记',
      pages: 101,
      enable: true,
    });
  });

  it('keeps the form open and shows the server message when a save fails', async () => {
    const { failNextSave, books } = renderScreen(3);
    await screen.findByText('书籍1');
    failNextSave.message = '书名已存在';
    await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
    const sheet = within(sheetRoot());
    await userEvent.type(sheet.getByLabelText('书名'), '书籍1');
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    await waitFor(() =>
      expect(toasts.value.some((t) => t.title === '创建失败' && t.description === '书名已存在')).toBe(true),
    );
    expect(toasts.value.find((t) => t.title === '创建失败')?.color).toBe('error');
    expect((sheet.getByLabelText('书名') as HTMLInputElement).value).toBe('书籍1');
    expect(books()).toHaveLength(3);
  });

  it('deletes a row only after confirmation', async () => {
    const { fetchMock } = renderScreen(3);
    await screen.findByText('书籍3');
    await userEvent.click(screen.getByRole('button', { name: '删除“书籍3”' }));
    expect(await screen.findByText('确定删除图书“书籍3”吗？此操作不可恢复。')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(calls(fetchMock, 'DELETE')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: '删除“书籍3”' }));
    const dialog = within(document.querySelector('.semi-modal') as HTMLElement);
    await userEvent.click(dialog.getByRole('button', { name: '删除' }));
    await waitFor(() => expect(screen.queryByText('书籍3')).toBeNull());
    expect(toastTitles()).toContain('删除成功');
    expect(toasts.value.find((t) => t.title === '删除成功')?.description).toBeUndefined();
    expect(calls(fetchMock, 'DELETE')[0]?.url.searchParams.getAll('id')).toEqual(['3']);
  });

  it('deletes the selected rows in one call', async () => {
    const { fetchMock } = renderScreen(5);
    await screen.findByText('书籍1');
    const batch = screen.getByRole('button', { name: /批量删除/ });
    expect(batch.hasAttribute('disabled') || batch.getAttribute('aria-disabled') === 'true').toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“书籍1”' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“书籍4”' }));
    await userEvent.click(screen.getByRole('button', { name: /批量删除（2）/ }));
    expect(await screen.findByText('确定删除选中的 2 个图书吗？此操作不可恢复。')).toBeTruthy();
    await userEvent.click(
      within(document.querySelector('.semi-modal') as HTMLElement).getByRole('button', { name: '删除' }),
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(calls(fetchMock, 'DELETE')[0]?.url.searchParams.getAll('id').sort()).toEqual(['1', '4']);
    // A batch says how many rows it did; one row's 删除 (above) says no count.
    expect(toasts.value.find((t) => t.title === '删除成功')?.description).toBe('共 2 项');
  });

  it('announces how many rows are selected from a live region in the page before the first is ticked', async () => {
    renderScreen(5);
    await screen.findByText('书籍1');
    const count = within(screen.getByRole('toolbar')).getByRole('status');
    expect(count.textContent).toBe('');
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“书籍1”' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“书籍4”' }));
    expect(count.textContent).toBe('已选择 2 项');
  });

  it('counts the rows to delete with the measure word of the resource', async () => {
    renderScreen(5, undefined, { ...bookResource, counter: '本' });
    await screen.findByText('书籍1');
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“书籍1”' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“书籍4”' }));
    await userEvent.click(screen.getByRole('button', { name: /批量删除（2）/ }));
    expect(await screen.findByText('确定删除选中的 2 本图书吗？此操作不可恢复。')).toBeTruthy();
  });

  it('goes to the page that is now the last when its last rows are deleted, in place of the empty one', async () => {
    const { router } = renderScreen(11, '/elsewhere');
    await act(() => router.navigate('/books?page=2'));
    expect(await screen.findByText('书籍11')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '删除“书籍11”' }));
    await userEvent.click(
      within(document.querySelector('.semi-modal') as HTMLElement).getByRole('button', { name: '删除' }),
    );
    expect(await screen.findByText('书籍10')).toBeTruthy();
    expect(screen.queryByText('暂无图书')).toBeNull();
    expect(bodyRows()).toHaveLength(10);
    expect(router.state.location.search).toBe('');
    // The empty page left no entry behind: back is where the admin came from.
    await act(() => router.navigate(-1));
    expect(await screen.findByText('别处')).toBeTruthy();
  });

  it('gives no count for a page past the last, on its way to the last one', () => {
    const pager = (page: number) =>
      render(<ListPager page={page} size={10} total={23} sizes={[10, 20]} onPage={() => {}} onSize={() => {}} />);
    expect(pager(9).container.textContent).toBe('');
    cleanup();
    expect(pager(3).container.textContent).toContain('显示第 21 条-第 23 条，共 23 条');
  });

  it('shows the last page for an address past it (an old link)', async () => {
    const { router } = renderScreen(23, '/books?page=9&wd=%E4%B9%A6%E7%B1%8D');
    expect(await screen.findByText('书籍21')).toBeTruthy();
    expect(screen.queryByText('暂无图书')).toBeNull();
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('3');
    expect(new URLSearchParams(router.state.location.search).get('wd')).toBe('书籍');
  });

  it('says it is loading, never 暂无, while the first page is still coming', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    api.configure({ fetch: fetchMock as unknown as typeof fetch });
    renderBookScreen();
    expect(await screen.findByText('正在加载图书…')).toBeTruthy();
    expect(screen.queryByText('暂无图书')).toBeNull();
    answer(new Response(JSON.stringify({ book: [], total: 0 }), { status: 200 }));
    expect(await screen.findByText('暂无图书')).toBeTruthy();
  });

  it('shows the empty state, and the error state with a retry', async () => {
    renderScreen(0);
    expect(await screen.findByText('暂无图书')).toBeTruthy();
    expect(screen.getByText('点击上方“新建图书”添加。')).toBeTruthy();
  });

  /** The picture of the empty state shown, once its lazy chunk has come. */
  const emptyPicture = async () =>
    (
      await screen.findByText(
        (_, el) => el?.closest('.app-state') !== null && el?.hasAttribute('data-illustration') === true,
      )
    ).getAttribute('data-illustration');

  it("draws the empty state's picture with a + only where the list offers to add a row", async () => {
    renderScreen(0);
    await screen.findByText('暂无图书');
    expect(await emptyPicture()).toBe('noContent');
    cleanup();
    // A list without 新建 (orders, reports): an empty box, not an invitation to add one.
    const { create: _create, ...readOnly } = bookResource;
    renderScreen(0, undefined, readOnly);
    await screen.findByText('暂无图书');
    expect(screen.queryByText(/点击上方/)).toBeNull();
    expect(await emptyPicture()).toBe('noResult');
    cleanup();
    // Nothing the filters find: no invitation either, where the list does offer 新建.
    renderScreen(23, '/books?wd=%E7%BA%A2%E6%A5%BC');
    await screen.findByText('当前筛选条件下没有图书');
    expect(await emptyPicture()).toBe('noResult');
  });

  it('says when only the filters find nothing, and clears them', async () => {
    const { router } = renderScreen(23, '/books?wd=%E7%BA%A2%E6%A5%BC');
    expect(await screen.findByText('当前筛选条件下没有图书')).toBeTruthy();
    expect(screen.queryByText('暂无图书')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '清除筛选条件' }));
    expect(await screen.findByText('书籍1')).toBeTruthy();
    expect(router.state.location.search).toBe('');
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('');
  });

  it('shows the server message when the list cannot be loaded, and retries', async () => {
    let fail = true;
    const fetchMock = vi.fn(async () =>
      fail
        ? new Response(JSON.stringify({ code: 7, message: '您没有权限访问【图书列表】' }), { status: 403 })
        : new Response(JSON.stringify({ book: [{ id: 1, title: '书籍1' }], total: 1 }), { status: 200 }),
    );
    api.configure({ fetch: fetchMock as unknown as typeof fetch });
    renderBookScreen();
    expect(await screen.findByText('您没有权限访问【图书列表】')).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: '重试' }));
    expect(await screen.findByText('书籍1')).toBeTruthy();
  });
});

describe('admin resource screen with many rows', () => {
  it('opens and closes its create and edit sheets without rendering the rows of the list again', async () => {
    // A tree of 300 categories is one page of 300 rows: rendering them again took seconds.
    let cellsRendered = 0;
    const counted: ResourceDef<Book, Values> = {
      ...bookResource,
      columns: [
        ...bookResource.columns.filter((column) => column.key !== 'pages'),
        {
          key: 'pages',
          title: '页数',
          render: (row) => {
            cellsRendered += 1;
            return String(row.pages);
          },
        },
      ],
    };
    renderScreen(23, '/books?size=20', counted);
    await waitFor(() => expect(bodyRows()).toHaveLength(20));
    cellsRendered = 0;
    await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
    await waitFor(() => expect(sheetRoot()).toBeTruthy());
    await userEvent.click(within(sheetRoot()).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(document.querySelector('.semi-sidesheet-inner')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: '编辑“书籍1”' }));
    await waitFor(() => expect((screen.getByLabelText('书名') as HTMLInputElement).value).toBe('书籍1'));
    expect(cellsRendered).toBe(0);
  });
});

describe("the admin lists' filters, by screen reader", () => {
  it("names the box typed in to narrow a filter's list (a multiple one's is a Tab stop) after the filter", async () => {
    render(
      <UiProvider>
        <FilterBar
          idPrefix="books"
          filters={[
            {
              kind: 'select',
              name: 'enable',
              label: '上架',
              options: [
                { value: true, label: '是' },
                { value: false, label: '否' },
              ],
            },
            {
              kind: 'custom',
              name: 'user',
              label: '上传者',
              // As the user filter's UserPicker draws it: a multiple Select narrowed by typing.
              render: ({ id }) => <Select id={id} aria-labelledby={`${id}-label`} multiple filter optionList={[]} />,
            },
          ]}
          applied={{}}
          onApply={() => {}}
        />
      </UiProvider>,
    );
    expect(screen.getByRole('textbox', { name: '上传者' })).toBeTruthy();
    // The filter's label takes the keyboard to its list, as a text box's does.
    await userEvent.click(screen.getByText('上架', { selector: 'label' }));
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: '上架' }));
    await userEvent.click(screen.getByRole('combobox', { name: '上架' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: '上架' })));
  });
});

/** The book list with `form` in place of the book's own, its 新建图书 sheet open: the sheet. */
async function openNewBookSheet<V extends FormValues>(form: ResourceDef<Book, V>['form']) {
  const { create: _create, update: _update, form: _form, createdToast: _toast, ...listing } = bookResource;
  const resource: ResourceDef<Book, V> = {
    ...listing,
    form,
    create: () => api.post('/api/v1/book', {}),
    update: () => api.put('/api/v1/book', {}),
  };
  renderScreen(3, undefined, resource as unknown as ResourceDef<Book, Values>);
  await screen.findByText('书籍1');
  await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
  return within(sheetRoot());
}

describe("an admin form's fields chosen from a list, by keyboard and screen reader", () => {
  it('marks a required Select and user picker left empty as invalid, tied to their messages', async () => {
    type ShelfValues = { shelf: number | undefined; users: number[] };
    const sheet = await openNewBookSheet<ShelfValues>({
      fields: [
        {
          name: 'shelf',
          label: '书架',
          kind: 'select',
          required: true,
          options: [
            { value: 1, label: '一号书架' },
            { value: 2, label: '二号书架' },
          ],
        },
        usersField<ShelfValues>('可借阅的读者'),
      ],
      initial: () => ({ shelf: undefined, users: [] }),
    });
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    const shelf = sheet.getByRole('combobox', { name: '书架' });
    expect(shelf.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(shelf.getAttribute('aria-describedby') ?? '')?.textContent).toBe('请选择书架');
    // The user picker's Tab stop is the box typed in to find users.
    const users = sheet.getByRole('textbox', { name: '用户' });
    expect(users.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(users.getAttribute('aria-describedby') ?? '')?.textContent).toBe('请选择用户');
  });
});

describe("an admin form's tree of choices, by keyboard and screen reader", () => {
  it('focuses the tree from its label and names the box typed in to narrow it after the label', async () => {
    type ShelfValues = { shelf: number | undefined };
    const sheet = await openNewBookSheet<ShelfValues>({
      fields: [
        {
          name: 'shelf',
          label: '书架',
          kind: 'tree-select',
          options: () => [{ value: 1, label: '一楼', children: [{ value: 2, label: '二号书架' }] }],
        },
      ],
      initial: () => ({ shelf: undefined }),
    });
    const shelf = sheet.getByRole('combobox', { name: '书架' });
    await userEvent.click(sheet.getByText('书架', { selector: 'label' }));
    expect(document.activeElement).toBe(shelf);
    await userEvent.click(shelf);
    expect(await screen.findByRole('textbox', { name: '书架' })).toBeTruthy();
  });
});

describe('an admin form refused by its checks, by keyboard', () => {
  it("takes the keyboard from 创建 to the sheet's first wrong field, past the right ones", async () => {
    renderScreen(3);
    await screen.findByText('书籍1');
    await userEvent.click(screen.getByRole('button', { name: /新建图书/ }));
    const sheet = within(sheetRoot());
    await userEvent.type(sheet.getByLabelText('书名'), '新书');
    await userEvent.type(sheet.getByLabelText('页数'), '0');
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    await waitFor(() => expect(document.activeElement).toBe(sheet.getByLabelText('页数')));
  });

  it("takes the keyboard from the action dialog's button to its wrong field", async () => {
    const run = vi.fn(() => api.post('/api/v1/book/lend', {}));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <UiProvider>
          <ActionDialog<{ reason: string }>
            idPrefix="lend"
            title="借出图书"
            okText="借出"
            fields={[{ name: 'reason', label: '原因', kind: 'text', required: true }]}
            initial={{ reason: '' }}
            run={run}
            success="已借出"
            failure="借出失败"
            onClose={() => {}}
          />
        </UiProvider>
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: '借出' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('原因')));
    expect(run).not.toHaveBeenCalled();
  });
});

describe("the admin's date pickers, by keyboard", () => {
  it("takes the keyboard to a filter's date range from its label", async () => {
    render(
      <UiProvider>
        <FilterBar
          idPrefix="books"
          filters={[{ kind: 'date-range', name: 'created', label: '上架时间', from: 'createdFrom', to: 'createdTo' }]}
          applied={{}}
          onApply={() => {}}
        />
      </UiProvider>,
    );
    await userEvent.click(screen.getByText('上架时间', { selector: 'label' }));
    expect(document.activeElement).toBe(screen.getByPlaceholderText('开始日期'));
  });

  it("takes the keyboard to a form's date and time from its label", async () => {
    type DatedValues = { shelvedAt: string };
    const sheet = await openNewBookSheet<DatedValues>({
      fields: [{ name: 'shelvedAt', label: '上架时间', kind: 'custom', render: dateTimeRender('请选择上架时间') }],
      initial: () => ({ shelvedAt: '' }),
    });
    await userEvent.click(sheet.getByText('上架时间', { selector: 'label' }));
    expect(document.activeElement).toBe(sheet.getByPlaceholderText('请选择上架时间'));
  });
});
