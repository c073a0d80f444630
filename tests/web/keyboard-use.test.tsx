// What a keyboard alone does on the public screens: the skip link past the header, and a form sent
// with wrong fields taking the keyboard to the first of them.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider, useSearchParams } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { InlineConfirm } from '../../web/src/kit/confirm/InlineConfirm';
import { PageLinks } from '../../web/src/kit/paging/PageLinks';
import { SearchBox } from '../../web/src/features/search/SearchBox';
import { Button } from '../../web/src/ui/semi';
import { Pager } from '../../web/src/ui/Pager';
import { TabSwitch } from '../../web/src/ui/TabSwitch';
import { member, renderApp } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

describe('keyboard use', () => {
  it("offers 跳到正文 as the first Tab stop, and Enter on it takes the keyboard past the header's links", async () => {
    const { router } = renderApp('/library');
    const main = await screen.findByRole('main');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: '跳到正文' });
    expect(document.activeElement).toBe(skip);
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(main);
    // Focused, not followed: the address keeps no #hash.
    expect(router.state.location.hash).toBe('');
    // The next Tab goes on inside the screen, not back to the header.
    await userEvent.tab();
    await waitFor(() => expect(main.contains(document.activeElement)).toBe(true));
  });

  it('takes the keyboard to the first wrong field when the login form is refused by its checks', async () => {
    renderApp('/auth/login');
    const username = await screen.findByLabelText('用户名');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(username));
    expect(username.getAttribute('aria-invalid')).toBe('true');
  });

  it("takes the keyboard to the register form's first wrong field, past the right ones", async () => {
    renderApp('/auth/register');
    await userEvent.type(await screen.findByLabelText('用户名'), 'amy01');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    const email = screen.getByLabelText('邮箱');
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });

  it('takes the keyboard to 反馈内容 when the feedback dialog is sent empty', async () => {
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: '意见反馈' }));
    const dialog = within(await screen.findByRole('dialog', { name: '意见反馈' }));
    await userEvent.click(dialog.getByRole('button', { name: '提交反馈' }));
    const content = dialog.getByLabelText('反馈内容');
    await waitFor(() => expect(document.activeElement).toBe(content));
    expect(content.getAttribute('aria-invalid')).toBe('true');
  });

  it('moves along a row of tabs by its arrows, Home and End, the chosen tab its one Tab stop', async () => {
    function Ways() {
      const [way, setWay] = useState<'email' | 'mobile'>('email');
      const ways = [
        { key: 'email', label: '邮箱找回' },
        { key: 'mobile', label: '手机找回' },
      ] as const;
      return (
        <>
          <TabSwitch label="找回方式" tabs={ways} active={way} onChange={setWay} />
          <button type="button">下一步</button>
        </>
      );
    }
    render(<Ways />);
    const email = screen.getByRole('tab', { name: '邮箱找回' });
    const mobile = screen.getByRole('tab', { name: '手机找回' });
    const next = screen.getByRole('button', { name: '下一步' });
    await userEvent.tab();
    expect(document.activeElement).toBe(email);
    // One Tab stop for the row: the next Tab leaves it.
    await userEvent.tab();
    expect(document.activeElement).toBe(next);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(email);
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(mobile);
    expect(mobile.getAttribute('aria-selected')).toBe('true');
    // Past the last, the first again; End and Home go to the ends.
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(email);
    expect(email.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(mobile);
    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(email);
    await userEvent.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(mobile);
    await userEvent.tab();
    expect(document.activeElement).toBe(next);
  });

  it('keeps the focus on a button that turns busy and idle again, which Semi draws anew each time', async () => {
    function SaveButton() {
      const [busy, setBusy] = useState(false);
      return (
        <Button loading={busy} onClick={() => setBusy((was) => !was)}>
          保存
        </Button>
      );
    }
    render(<SaveButton />);
    const before = screen.getByRole('button', { name: '保存' });
    await userEvent.tab();
    expect(document.activeElement).toBe(before);
    await userEvent.keyboard('{Enter}');
    const busy = screen.getByRole('button', { name: '保存' });
    // Semi's busy button is another <button>: the focus moved with it.
    expect(busy).not.toBe(before);
    expect(document.activeElement).toBe(busy);
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '保存' }));
  });
});

/** The live region that says the page's title: the one whose words are a title (`… - 测试文库`). */
const saidTitle = () =>
  screen
    .getAllByRole('status')
    .map((region) => region.textContent ?? '')
    .find((text) => text.endsWith(' - 测试文库')) ?? '';

describe('a move to another screen, by keyboard and screen reader', () => {
  it("takes the focus to the new screen's <main> and says its title, but not on the first screen", async () => {
    const { router } = renderApp('/');
    await screen.findByRole('main');
    // The first screen: a page load, which a screen reader reads by itself.
    expect(saidTitle()).toBe('');
    expect(document.activeElement).toBe(document.body);
    const link = within(screen.getByRole('navigation', { name: '文档分类' })).getByRole('link', { name: '全部文档' });
    link.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/library'));
    await waitFor(() => expect(saidTitle()).toBe('文库资料 - 测试文库'));
    // From the header's link to the screen: the next Tab goes on in it, as after 跳到正文.
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(document.activeElement).not.toBe(link);
    await act(() => router.navigate('/auth/login'));
    await waitFor(() => expect(saidTitle()).toBe('登录 - 测试文库'));
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('takes the focus to <main> when 退出登录 on the home page took the user menu away with it', async () => {
    renderApp('/', { user: member, backend: { 'DELETE /api/v1/user/logout': { status: 200, body: {} } } });
    (await screen.findByRole('button', { name: '用户菜单 amy' })).focus();
    await userEvent.keyboard('{Enter}{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: '退出登录' }));
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('link', { name: '登录' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it("closes the user menu on Tab and goes on from its button: Tab to the header's next link, Shift+Tab to the one before", async () => {
    renderApp('/', { user: member });
    const menu = await screen.findByRole('button', { name: '用户菜单 amy' });
    const stops = [...document.querySelectorAll<HTMLElement>('a[href], button')].filter(
      (element) => !element.closest('[role="menu"]'),
    );
    const after = stops[stops.indexOf(menu) + 1];
    const before = stops[stops.indexOf(menu) - 1];
    menu.focus();
    await userEvent.keyboard('{Enter}{ArrowDown}');
    expect(document.activeElement?.getAttribute('role')).toBe('menuitem');
    await userEvent.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(after);
    menu.focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.tab({ shift: true });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(before);
  });

  it('leaves the focus where it is when only the query changes (a search box, a pager)', async () => {
    const { router } = renderApp('/library');
    await screen.findByRole('main');
    const box = within(screen.getByRole('search', { name: '站内搜索' })).getByRole('searchbox');
    box.focus();
    await act(() => router.navigate('/library?page=2'));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(document.activeElement).toBe(box);
  });
});

describe('searching again on the results page, by keyboard', () => {
  it('keeps the focus in the search box that was used, which shows the words of each search', async () => {
    const { router } = renderApp('/search');
    const box = within(await screen.findByRole('search', { name: '搜索文档' })).getByRole('searchbox');
    const searched = (words: string) =>
      waitFor(() => expect(router.state.location.search).toBe(`?wd=${encodeURIComponent(words)}`));
    await userEvent.click(box);
    await userEvent.keyboard('年度{Enter}');
    await searched('年度');
    expect(document.activeElement).toBe(box);
    await userEvent.keyboard('报告{Enter}');
    await searched('年度报告');
    expect(document.activeElement).toBe(box);
    // The header's box, used on the results page, keeps it too. It follows the address in a render
    // of its own, which may come after the router's state has changed.
    const header = within(screen.getByRole('search', { name: '站内搜索' })).getByRole('searchbox');
    await waitFor(() => expect((header as HTMLInputElement).value).toBe('年度报告'));
    await userEvent.type(header, '汇总{Enter}');
    await searched('年度报告汇总');
    expect(document.activeElement).toBe(header);
    // Another search shown by a link: both boxes say its words.
    await act(() => router.navigate(`/search?wd=${encodeURIComponent('试卷')}`));
    await waitFor(() => expect((box as HTMLInputElement).value).toBe('试卷'));
    // The header's box in its own render, as above.
    await waitFor(() => expect((header as HTMLInputElement).value).toBe('试卷'));
  });
});

describe('a search box whose own search is passed by another before it was drawn with it', () => {
  it('shows the other search’s words, not its own', async () => {
    // The header's box follows the address in a render of its own: a link followed at once after
    // its search (a hot word, back) can reach it before the render with its own words.
    function Box() {
      const [params] = useSearchParams();
      return <SearchBox initial={params.get('wd') ?? ''} label="站内搜索" />;
    }
    const router = createMemoryRouter([{ path: '/search', element: <Box /> }], {
      initialEntries: [`/search?wd=${encodeURIComponent('年度报告')}`],
    });
    render(<RouterProvider router={router} />);
    const box = screen.getByRole('searchbox') as HTMLInputElement;
    await userEvent.type(box, '汇总');
    // Its search and a link's, in one render of the box.
    await act(async () => {
      fireEvent.submit(box.form!);
      await router.navigate(`/search?wd=${encodeURIComponent('试卷')}`);
    });
    expect(router.state.location.search).toBe(`?wd=${encodeURIComponent('试卷')}`);
    expect(box.value).toBe('试卷');
    // Words typed since are kept when another search shows.
    await userEvent.type(box, '答案');
    await act(() => router.navigate(`/search?wd=${encodeURIComponent('期末')}`));
    expect(box.value).toBe('试卷答案');
  });
});

describe('an action confirmed in place, by keyboard', () => {
  it('asks with the focus on 取消, takes Escape for 取消 and gives the focus back to the trigger', async () => {
    const confirmed: number[] = [];
    render(
      <InlineConfirm
        label="删除"
        accessibleName="删除“城市图书馆的一天”"
        question="确定删除？"
        onConfirm={() => confirmed.push(1)}
      />,
    );
    await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    const question = screen.getByRole('group', { name: '确定删除？' });
    expect(document.activeElement).toBe(within(question).getByRole('button', { name: '取消' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: '确定删除？' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '删除“城市图书馆的一天”' }));
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Enter}');
    expect(confirmed).toEqual([1]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '删除“城市图书馆的一天”' }));
  });
});

describe("the member lists' 上一页 and 下一页, by keyboard", () => {
  it('gives the focus to 上一页 when 下一页 turns disabled on the last page, and says the page', async () => {
    function Paged() {
      const [page, setPage] = useState(1);
      return <Pager page={page} size={10} total={25} onChange={setPage} />;
    }
    render(<Paged />);
    screen.getByRole('button', { name: '下一页' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '下一页' }));
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: '下一页' }).hasAttribute('disabled')).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '上一页' }));
    expect(within(screen.getByRole('navigation', { name: '分页' })).getByRole('status').textContent).toBe(
      '第 3 / 3 页，共 25 条',
    );
  });

  it('moves the focus to 上一页 on the last page without scrolling (a list sent back to its top stays there)', async () => {
    function Paged() {
      const [page, setPage] = useState(2);
      return <Pager page={page} size={10} total={25} onChange={setPage} />;
    }
    render(<Paged />);
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    try {
      await userEvent.click(screen.getByRole('button', { name: '下一页' }));
      const previous = screen.getByRole('button', { name: '上一页' });
      await waitFor(() => expect(document.activeElement).toBe(previous));
      const calls = focus.mock.contexts.flatMap((element, index) =>
        element === previous ? [focus.mock.calls[index]] : [],
      );
      expect(calls).toEqual([[{ preventScroll: true }]]);
    } finally {
      focus.mockRestore();
    }
  });
});

describe('page links, by keyboard', () => {
  it('keeps the focus in the paging when 下一页 is gone on the last page, on the current number', async () => {
    function Paged() {
      const [params] = useSearchParams();
      return <PageLinks page={Number(params.get('page') ?? 1)} pages={2} hrefFor={(n) => `/list?page=${n}`} />;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Paged /> }], { initialEntries: ['/list'] });
    render(<RouterProvider router={router} />);
    screen.getByRole('link', { name: '下一页' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(screen.queryByRole('link', { name: '下一页' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: '第 2 页' })));
  });

  it('leaves the new page at its top when a tap on 下一页 reaches the last page (the focus does not scroll)', async () => {
    function Paged() {
      const [params] = useSearchParams();
      return <PageLinks page={Number(params.get('page') ?? 1)} pages={2} hrefFor={(n) => `/list?page=${n}`} />;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Paged /> }], { initialEntries: ['/list'] });
    render(<RouterProvider router={router} />);
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    try {
      await userEvent.click(screen.getByRole('link', { name: '下一页' }));
      await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
      const current = screen.getByRole('link', { name: '第 2 页' });
      await waitFor(() => expect(document.activeElement).toBe(current));
      // A focus that scrolls takes a phone back down to the paging at the bottom of the list.
      const calls = focus.mock.contexts.flatMap((element, index) =>
        element === current ? [focus.mock.calls[index]] : [],
      );
      expect(calls).toEqual([[{ preventScroll: true }]]);
    } finally {
      focus.mockRestore();
    }
  });
});

// Last: run before the search test above, they made its timing-prone test fail one run in two.
describe('an error screen reached by a move, by keyboard and screen reader', () => {
  it('takes the focus to the error screen and says its title when a move leads to one, not on a page load', async () => {
    const { router } = renderApp('/');
    await screen.findByRole('main');
    const link = within(screen.getByRole('navigation', { name: '文档分类' })).getByRole('link', { name: '全部文档' });
    link.focus();
    await act(() => router.navigate('/no-such-screen'));
    const main = await screen.findByRole('main', { name: '' });
    await waitFor(() => expect(saidTitle()).toBe('出错啦！ - 测试文库'));
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe('出错啦！');
    expect(document.activeElement).toBe(main);
  });

  it('leaves the focus alone on an error screen the browser loaded', async () => {
    renderApp('/no-such-screen');
    await screen.findByRole('heading', { name: '出错啦！' });
    expect(saidTitle()).toBe('');
    expect(document.activeElement).toBe(document.body);
  });
});
