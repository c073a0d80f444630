// Icons add no English to what a screen reader reads. Semi's icon is <span role="img"
// aria-label="search">: beside a text its type name joined the control's accessible name
// ("arrow_up 返回顶部"), alone it was the name. Ours (web/src/ui/icons.ts) are decorative unless
// named in Chinese; Semi's own controls on our screens (the Modal's close button, Tag, the Nav's
// fold button, the table's select-all box) are named in Chinese too.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement, createRef, type ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { isSemiIcon } from '@douyinfe/semi-ui-19/lib/es/_utils';
import * as icons from '../../web/src/ui/icons';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { iconWordsIn } from '../helpers/semi-icon-names';
import { admin, newSiteGroups, renderApp, settings } from './render-app';
import { DatePicker, InputNumber, Select, Table } from '../../web/src/ui/semi-admin';
import { UiProvider } from '../../web/src/ui/UiProvider';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

/** The roles whose elements a screen reader names (landmarks, controls, images, cells…). */
const NAMED_ROLES = [
  'alert',
  'banner',
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'combobox',
  'complementary',
  'contentinfo',
  'dialog',
  'form',
  'gridcell',
  'heading',
  'img',
  'link',
  'listitem',
  'main',
  'menuitem',
  'navigation',
  'option',
  'radio',
  'region',
  'row',
  'search',
  'searchbox',
  'spinbutton',
  'status',
  'switch',
  'tab',
  'textbox',
  'toolbar',
  'treeitem',
] as const;

/**
 * What on screen has an icon's English type name in its accessible name (testing-library's
 * computation, elements outside the accessibility tree left out), or in an aria-label outside an
 * aria-hidden part: `role "name"` or `[aria-label="…"]`, one line each.
 */
function iconWordsOnScreen(): string[] {
  const named = NAMED_ROLES.flatMap((role) =>
    screen
      .queryAllByRole(role, { name: (name) => iconWordsIn(name).length > 0 })
      .map((element) => `${role} "${element.getAttribute('aria-label') ?? element.textContent}"`),
  );
  const labels = [...document.querySelectorAll('[aria-label]')]
    .filter((element) => !element.closest('[aria-hidden="true"]'))
    .map((element) => element.getAttribute('aria-label') ?? '')
    .filter((label) => iconWordsIn(label).length > 0)
    .map((label) => `[aria-label="${label}"]`);
  return [...new Set([...named, ...labels])];
}

describe('our icons (ui/icons)', () => {
  const all = Object.entries(icons) as [string, ComponentType<icons.IconProps>][];

  it('are decorative unless named: aria-hidden, without role or English label', () => {
    expect(all.length).toBeGreaterThan(30);
    const { container } = render(
      <p>
        {all.map(([name, Icon]) => (
          <Icon key={name} data-icon={name} />
        ))}
      </p>,
    );
    const spans = [...container.querySelectorAll('[data-icon]')];
    expect(spans).toHaveLength(all.length);
    for (const span of spans) {
      const which = span.getAttribute('data-icon');
      expect([which, span.getAttribute('aria-hidden')]).toEqual([which, 'true']);
      expect([which, span.getAttribute('role'), span.getAttribute('aria-label')]).toEqual([which, null, null]);
      expect(span.classList.contains('semi-icon')).toBe(true);
    }
    expect(screen.queryAllByRole('img')).toEqual([]);
  });

  it('are images named in Chinese where given a label, or labelled by another element', () => {
    render(
      <p>
        <span id="waiting">二维码生成中</span>
        <icons.IconSpin spin aria-labelledby="waiting" />
        <icons.IconInfoCircle aria-label="提示" />
      </p>,
    );
    expect(screen.getByRole('img', { name: '提示' }).hasAttribute('aria-hidden')).toBe(false);
    expect(screen.getByRole('img', { name: '二维码生成中' }).classList.contains('semi-icon-spinning')).toBe(true);
  });

  it('stay icons to Semi (elementType) and pass a ref on to their span', () => {
    for (const [name, Icon] of Object.entries(icons) as [string, ComponentType<icons.IconProps>][]) {
      expect([name, isSemiIcon(createElement(Icon))]).toEqual([name, true]);
    }
    const ref = createRef<HTMLSpanElement>();
    render(<icons.IconSearch ref={ref} />);
    expect(ref.current?.tagName).toBe('SPAN');
    expect(ref.current?.classList.contains('semi-icon-search')).toBe(true);
  });
});

describe('screens', () => {
  it('name the header search, the side buttons and the feedback dialog in Chinese only', async () => {
    renderApp('/');
    const header = within(await screen.findByRole('search', { name: '站内搜索' }));
    expect(header.getByRole('button', { name: '搜索' })).toBeTruthy();
    const side = within(screen.getByRole('complementary', { name: '快捷操作' }));
    expect(side.getAllByRole('button').map((button) => button.textContent)).toEqual(['意见反馈', '返回顶部']);
    // The name is the text alone: the icon beside it is no "comment" or "arrow_up".
    expect(side.getByRole('button', { name: '返回顶部' })).toBeTruthy();
    await userEvent.click(side.getByRole('button', { name: '意见反馈' }));
    const dialog = within(await screen.findByRole('dialog', { name: '意见反馈' }));
    // Semi's own close button is named "close" whatever the locale.
    expect(dialog.getByRole('button', { name: '关闭' })).toBeTruthy();
    expect(iconWordsOnScreen()).toEqual([]);
    await userEvent.click(dialog.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('name the admin menu, its fold button, the list’s boxes and tags in Chinese only', async () => {
    renderApp('/admin/user/list', {
      user: admin,
      permissions: [
        { id: 11, method: 'GRPC', path: '/api.v1.UserAPI/ListUser', title: '查看用户列表' },
        { id: 12, method: 'GRPC', path: '/api.v1.UserAPI/DeleteUser', title: '删除用户' },
      ],
      backend: {
        'GET /api/v1/group/list': newSiteGroups,
        'GET /api/v1/user/list': {
          status: 200,
          body: { user: [{ id: 5, username: 'bob', group_id: [2] }], total: 1 },
        },
        'GET /api/v1/punishment/list': { status: 200, body: { punishment: [], total: 0 } },
        'GET /api/v1/settings': { status: 200, body: settings },
      },
    });
    const bob = (await screen.findByText('bob')).closest('tr') as HTMLElement;
    const menu = within(screen.getByRole('complementary', { name: '管理菜单' }));
    expect(menu.getByRole('menuitem', { name: '控制面板' })).toBeTruthy();
    expect(menu.getAllByRole('menuitem', { name: '用户管理' }).length).toBeGreaterThan(0);
    // The table's header box (Semi: "Select all rows") and a row's.
    expect(screen.getByRole('checkbox', { name: '全选本页' })).toBeTruthy();
    expect(within(bob).getByRole('checkbox', { name: '选择“bob”' })).toBeTruthy();
    // Tags are read as their text (Semi: "Tag: 普通用户").
    expect(
      within(bob)
        .getAllByRole('gridcell')
        .map((cell) => cell.textContent),
    ).toContain('普通用户');
    expect(document.querySelector('[aria-label^="Tag"]')).toBeNull();
    expect(within(bob).getByRole('button', { name: '删除“bob”' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '批量删除' })).toBeTruthy();
    expect(iconWordsOnScreen()).toEqual([]);
    // Folded to a rail of icons, the menu's button is its icon alone: named in Chinese still.
    await userEvent.click(menu.getByRole('button', { name: '收起侧边栏' }));
    expect(await menu.findByRole('button', { name: '展开侧边栏' })).toBeTruthy();
    expect(menu.getByRole('menuitem', { name: '控制面板' })).toBeTruthy();
    expect(iconWordsOnScreen()).toEqual([]);
  });
});

describe("Semi's own English names", () => {
  /** Every aria-label outside an aria-hidden part that is English words only (Semi's: "Choose date", "close"). */
  const englishLabels = () =>
    [...document.querySelectorAll('[aria-label]')]
      .filter((element) => !element.closest('[aria-hidden="true"]'))
      .map((element) => element.getAttribute('aria-label') ?? '')
      .filter((label) => /^[A-Za-z][A-Za-z _]+$/.test(label));

  it('are Chinese on a date picker, a tree table, a number box and a multiple select, and stay so', async () => {
    type Node = { key: string; name: string; children?: Node[] };
    const tree: Node[] = [{ key: '1', name: '文档管理', children: [{ key: '2', name: '文档审核' }] }];
    const { unmount } = render(
      <UiProvider>
        <icons.IconInfoCircle aria-label="提示" />
        <DatePicker />
        <InputNumber defaultValue={30} />
        <Select
          multiple
          defaultValue={[1, 2]}
          optionList={[
            { value: 1, label: '支付宝' },
            { value: 2, label: '微信支付' },
          ]}
        />
        <Table<Node>
          rowKey="key"
          columns={[{ title: '权限', dataIndex: 'name' }]}
          dataSource={tree}
          pagination={false}
        />
      </UiProvider>,
    );
    await waitFor(() => expect(englishLabels()).toEqual([]));
    expect(screen.getByRole('combobox', { name: '选择日期' })).toBeTruthy();
    // An icon of ours named in Chinese is read as named.
    expect(screen.getByRole('img', { name: '提示' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '展开或收起' })).toBeTruthy();
    // What Semi writes again as it re-renders is rewritten too.
    await userEvent.click(screen.getByRole('button', { name: '展开或收起' }));
    expect(await screen.findByText('文档审核')).toBeTruthy();
    await waitFor(() => expect(englishLabels()).toEqual([]));
    unmount();
  });
});
