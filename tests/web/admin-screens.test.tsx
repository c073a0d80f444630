// Admin screens that are more than a plain resource, inside the real route tree.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Config } from '../../shared/types/config';
import type { Permission } from '../../shared/types/permission';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { statsQuery } from '../../web/src/features/stats/api';
import { admin, holdCalls, newSiteGroups, renderApp, settings, type Backend, type Reply } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const perm = (id: number, path: string, title: string, method = 'GRPC'): Permission => ({ id, method, path, title });

const requests = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (init?.method ?? 'GET') === method && new URL(String(url), 'http://localhost').pathname === path,
  );

describe('config screen', () => {
  const rows: Config[] = [
    {
      id: 1,
      name: 'sitename',
      label: '网站名称',
      value: '魔豆文库',
      input_type: 'text',
      category: 'system',
      col_num: 24,
    },
    { id: 2, name: 'description', label: '网站描述', value: '描述', input_type: 'textarea', category: 'system' },
    {
      id: 3,
      name: 'logo',
      label: '网站Logo',
      value: '/uploads/a/logo.png',
      input_type: 'image',
      category: 'system',
      col_num: 12,
    },
    { id: 4, name: 'max_preview', label: '最大预览页数', value: '12', input_type: 'number', category: 'system' },
    { id: 5, name: 'is_close', label: '是否关闭网站', value: 'false', input_type: 'switch', category: 'system' },
    {
      id: 6,
      name: 'style',
      label: '首页样式',
      value: 'card',
      input_type: 'select',
      category: 'system',
      options: 'card:卡片\nlist:列表',
    },
  ];
  const configPermissions = [perm(2, '/api.v1.ConfigAPI/ListConfig', '获取系统配置列表')];

  function backend(extra: Backend = {}): Backend {
    return {
      'GET /api/v1/config/list': (url) => ({
        status: 200,
        body: { config: url.searchParams.getAll('category').includes('system') ? rows : [] },
      }),
      'PUT /api/v1/config': { status: 200, body: {} },
      'GET /api/v1/settings': {
        status: 200,
        body: { ...settings, system: { ...settings.system, sitename: '新名字' } },
      },
      ...extra,
    };
  }

  it('renders one input per row, by input type, with the stored values', async () => {
    renderApp('/admin/config/system', { user: admin, permissions: configPermissions, backend: backend() });
    expect(await screen.findByRole('heading', { name: '系统配置' })).toBeTruthy();
    expect(((await screen.findByLabelText('网站名称')) as HTMLInputElement).value).toBe('魔豆文库');
    expect(screen.getByLabelText('网站描述').tagName).toBe('TEXTAREA');
    expect((screen.getByLabelText('最大预览页数') as HTMLInputElement).getAttribute('role')).toBe('spinbutton');
    expect(screen.getByRole('switch', { name: '是否关闭网站' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('img', { name: '网站Logo预览' }).getAttribute('src')).toBe('/uploads/a/logo.png');
    expect(screen.getByText('卡片')).toBeTruthy();
  });

  it('saves only this category, values as strings, and refreshes the public settings', async () => {
    const { fetchMock } = renderApp('/admin/config/system', {
      user: admin,
      permissions: configPermissions,
      backend: backend(),
    });
    const name = (await screen.findByLabelText('网站名称')) as HTMLInputElement;
    await userEvent.clear(name);
    await userEvent.type(name, '新名字');
    await userEvent.click(screen.getByRole('switch', { name: '是否关闭网站' }));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '保存成功')).toBe(true));
    const body = JSON.parse(String(requests(fetchMock, 'PUT', '/api/v1/config')[0]?.[1]?.body)) as { config: Config[] };
    expect(body.config).toEqual([
      { id: 1, name: 'sitename', category: 'system', value: '新名字' },
      { id: 2, name: 'description', category: 'system', value: '描述' },
      { id: 3, name: 'logo', category: 'system', value: '/uploads/a/logo.png' },
      { id: 4, name: 'max_preview', category: 'system', value: '12' },
      { id: 5, name: 'is_close', category: 'system', value: 'true' },
      { id: 6, name: 'style', category: 'system', value: 'card' },
    ]);
    // The admin header reads the settings: it shows the new name without a reload.
    await waitFor(() => expect(screen.getByText('新名字 管理后台')).toBeTruthy());
  });

  it('says why a save failed, with the server message', async () => {
    const { fetchMock } = renderApp('/admin/config/system', {
      user: admin,
      permissions: configPermissions,
      backend: backend({ 'PUT /api/v1/config': { status: 403, body: { code: 7, message: '不允许修改此类配置！' } } }),
    });
    await screen.findByLabelText('网站名称');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '保存失败')?.description).toBe('不允许修改此类配置！'),
    );
    expect(requests(fetchMock, 'PUT', '/api/v1/config')).toHaveLength(1);
  });

  it('takes the failure away once the same save succeeds, so that 保存失败 does not stand beside 保存成功', async () => {
    let puts = 0;
    renderApp('/admin/config/system', {
      user: admin,
      permissions: configPermissions,
      backend: backend({
        'PUT /api/v1/config': () =>
          ++puts === 1
            ? { status: 403, body: { code: 7, message: '不允许修改此类配置！' } }
            : { status: 200, body: {} },
      }),
    });
    await screen.findByLabelText('网站名称');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '保存失败')?.open).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '保存成功')?.open).toBe(true));
    expect(toasts.value.filter((t) => t.open).map((t) => t.title)).toEqual(['保存成功']);
  });

  it('says 保存失败 for a full disk (503, code 14), not that the settings were saved but a test mail failed', async () => {
    const full = '服务器存储空间已满，暂时无法保存，请联系网站管理员';
    renderApp('/admin/config/system', {
      user: admin,
      permissions: configPermissions,
      backend: backend({ 'PUT /api/v1/config': { status: 503, body: { code: 14, message: full, error: full } } }),
    });
    await screen.findByLabelText('网站名称');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '保存失败')?.description).toBe(full));
    expect(toasts.value.map((t) => t.title)).not.toContain('配置已保存，但测试邮件发送失败');
  });

  it('shows the settings read-only, saying why, to a role that may list them but not update them', async () => {
    const { fetchMock } = renderApp('/admin/config/system', {
      user: { id: 9, username: 'kefu' },
      permissions: configPermissions,
      backend: backend(),
    });
    const name = (await screen.findByLabelText('网站名称')) as HTMLInputElement;
    expect(name.value).toBe('魔豆文库');
    expect(screen.getByRole('note').textContent).toContain('修改需要“更新系统配置”权限');
    expect(name.closest('fieldset')?.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    expect(screen.queryByRole('button', { name: '还原' })).toBeNull();
    expect(requests(fetchMock, 'PUT', '/api/v1/config')).toHaveLength(0);
  });

  it('sets the credits (积分配置) from the menu: their name and what registering earns', async () => {
    const score: Config[] = [
      { id: 54, name: 'credit_name', label: '积分名称', value: '魔豆', input_type: 'text', category: 'score' },
      { id: 55, name: 'register', label: '注册', value: '10', input_type: 'number', category: 'score' },
    ];
    const { fetchMock } = renderApp('/admin/config/system', {
      user: admin,
      permissions: configPermissions,
      backend: {
        ...backend(),
        'GET /api/v1/config/list': (url) => ({
          status: 200,
          body: { config: url.searchParams.get('category') === 'score' ? score : rows },
        }),
      },
    });
    await screen.findByLabelText('网站名称');
    await userEvent.click(screen.getByRole('menuitem', { name: '积分配置' }));
    expect(await screen.findByRole('heading', { name: '积分配置' })).toBeTruthy();
    const register = (await screen.findByLabelText('注册')) as HTMLInputElement;
    await userEvent.clear(register);
    await userEvent.type(register, '20');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(requests(fetchMock, 'PUT', '/api/v1/config')).toHaveLength(1));
    const body = JSON.parse(String(requests(fetchMock, 'PUT', '/api/v1/config')[0]?.[1]?.body)) as { config: Config[] };
    expect(body.config).toEqual([
      { id: 54, name: 'credit_name', category: 'score', value: '魔豆' },
      { id: 55, name: 'register', category: 'score', value: '20' },
    ]);
  });

  it('lets a role holding UpdateConfig edit and save', async () => {
    renderApp('/admin/config/system', {
      user: { id: 9, username: 'ops' },
      permissions: [...configPermissions, perm(3, '/api.v1.ConfigAPI/UpdateConfig', '更新系统配置')],
      backend: backend(),
    });
    const name = (await screen.findByLabelText('网站名称')) as HTMLInputElement;
    expect(name.closest('fieldset')?.disabled).toBe(false);
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('button', { name: '保存' })).toBeTruthy();
  });
});

describe('role permissions', () => {
  const all: Permission[] = [
    perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表'),
    perm(12, '/api.v1.UserAPI/DeleteUser', '删除用户'),
    perm(13, '/api.v1.UserAPI/AddUser', '新增用户'),
    perm(21, '/api.v1.GroupAPI/ListGroup', '获取用户组列表'),
    perm(31, '/api/v1/upload/banner', '上传轮播图', 'POST'),
  ];
  const groupBackend = (granted: number[]): Backend => ({
    'GET /api/v1/group/list': { status: 200, body: { group: [{ id: 3, title: '编辑', user_count: 0 }], total: 1 } },
    'GET /api/v1/permission/list': { status: 200, body: { permission: all, total: all.length } },
    'GET /api/v1/group/permission': { status: 200, body: granted.length ? { permission_id: granted } : {} },
    'PUT /api/v1/group/permission': { status: 200, body: {} },
  });

  /** /admin/user/group with the group 编辑 holding `granted`, its permission sheet opened. */
  async function openPermissionSheet(granted: number[]) {
    const rendered = renderApp('/admin/user/group', {
      user: admin,
      permissions: [all[3]!],
      backend: groupBackend(granted),
    });
    await userEvent.click(await screen.findByRole('button', { name: /设置“编辑”的权限/ }));
    const sheet = within((await screen.findByText('设置权限：编辑')).closest('.semi-sidesheet-inner') as HTMLElement);
    return { ...rendered, sheet };
  }

  it('grants a whole service, its list permission included, by checking the service', async () => {
    const { fetchMock, sheet } = await openPermissionSheet([21]);
    expect(await sheet.findByText('已选 1 项权限', { exact: false })).toBeTruthy();
    const service = sheet.getByText('用户管理').closest('.semi-tree-option') as HTMLElement;
    await userEvent.click(service.querySelector('.semi-checkbox') as HTMLElement);
    expect(sheet.getByText('已选 4 项权限', { exact: false })).toBeTruthy();
    await userEvent.click(sheet.getByRole('button', { name: '保存权限' }));
    await waitFor(() => expect(requests(fetchMock, 'PUT', '/api/v1/group/permission')).toHaveLength(1));
    const body = JSON.parse(String(requests(fetchMock, 'PUT', '/api/v1/group/permission')[0]?.[1]?.body)) as {
      group_id: number;
      permission_id: number[];
    };
    expect(body.group_id).toBe(3);
    expect([...body.permission_id].sort()).toEqual([11, 12, 13, 21]);
    await waitFor(() => expect(toasts.value.some((t) => t.title === '权限已保存')).toBe(true));
  });

  it('says beside 用户管理 that 短信管理 also needs its log or counters', async () => {
    all.push(
      perm(14, '/api.v1.UserAPI/ListSmsLog', '短信发送记录'),
      perm(15, '/api.v1.UserAPI/GetSmsStats', '短信发送统计'),
    );
    try {
      const { sheet } = await openPermissionSheet([21]);
      expect(
        await sheet.findByText('（列表权限开放：用户管理、短信管理（另需“短信发送记录”或“短信发送统计”））'),
      ).toBeTruthy();
    } finally {
      all.splice(-2);
    }
  });

  it('grants every permission of the site with 全选', async () => {
    const { fetchMock, sheet } = await openPermissionSheet([21]);
    await sheet.findByText('已选 1 项权限', { exact: false });
    await userEvent.click(sheet.getByRole('button', { name: '全选' }));
    expect(sheet.getByText('已选 5 项权限', { exact: false })).toBeTruthy();
    await userEvent.click(sheet.getByRole('button', { name: '保存权限' }));
    await waitFor(() => expect(requests(fetchMock, 'PUT', '/api/v1/group/permission')).toHaveLength(1));
    const body = JSON.parse(String(requests(fetchMock, 'PUT', '/api/v1/group/permission')[0]?.[1]?.body)) as {
      permission_id: number[];
    };
    expect([...body.permission_id].sort()).toEqual([11, 12, 13, 21, 31]);
  });

  it('clears every box with 全不选, and the sheet then keeps them on Escape', async () => {
    const { sheet } = await openPermissionSheet([11, 21]);
    await sheet.findByText('已选 2 项权限', { exact: false });
    await userEvent.click(sheet.getByRole('button', { name: '全不选' }));
    expect(sheet.getByText('已选 0 项权限', { exact: false })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByText('设置权限：编辑')).toBeTruthy();
  });

  it('keeps the ticked permissions on a click beside the sheet or Escape; untouched, Escape closes it', async () => {
    const { fetchMock, sheet } = await openPermissionSheet([21]);
    await sheet.findByText('已选 1 项权限', { exact: false });
    const service = sheet.getByText('用户管理').closest('.semi-tree-option') as HTMLElement;
    await userEvent.click(service.querySelector('.semi-checkbox') as HTMLElement);
    await userEvent.click(document.querySelector('.semi-sidesheet-mask') as HTMLElement);
    expect(screen.getByText('设置权限：编辑')).toBeTruthy();
    expect(sheet.getByText('已选 4 项权限', { exact: false })).toBeTruthy();
    expect(requests(fetchMock, 'PUT', '/api/v1/group/permission')).toHaveLength(0);
    // Escape keeps them too; untouched, the sheet closes on Escape, the keyboard back on its opener.
    await userEvent.keyboard('{Escape}');
    expect(sheet.getByText('已选 4 项权限', { exact: false })).toBeTruthy();
    await userEvent.click(sheet.getByRole('button', { name: '取消' }));
    const opener = screen.getByRole('button', { name: /设置“编辑”的权限/ });
    await waitFor(() => expect(document.activeElement).toBe(opener));
    await userEvent.click(opener);
    await screen.findByText('设置权限：编辑');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('设置权限：编辑')).toBeNull());
    expect(document.activeElement).toBe(opener);
  });
});

describe('user list', () => {
  const users = [
    { id: 1, username: 'admin', group_id: [1] },
    { id: 5, username: 'bob', group_id: [2], avatar: '/uploads/b.png' },
    { id: 6, username: 'carol', group_id: [2] },
  ];
  const userBackend: Backend = {
    'GET /api/v1/group/list': newSiteGroups,
    'GET /api/v1/user/list': (url) => {
      const ids = url.searchParams.getAll('id').map(Number);
      const rows = ids.length ? users.filter((u) => ids.includes(u.id)) : users;
      return { status: 200, body: ids.length ? { user: rows } : { user: rows, total: rows.length } };
    },
    'GET /api/v1/punishment/list': {
      status: 200,
      body: {
        punishment: [
          { id: 1, user_id: 6, type: 1, enable: true },
          { id: 2, user_id: 5, type: 1, enable: true, end_time: '2000-01-01T00:00:00Z' },
        ],
        total: 2,
      },
    },
  };
  const listPermissions = [
    perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表'),
    perm(12, '/api.v1.UserAPI/DeleteUser', '删除用户'),
  ];

  it('draws no empty 操作 column for a role that may only read the list, and one with 调整积分 for a role that may', async () => {
    const kefu = { id: 9, username: 'kefu' };
    const listUser = perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表');
    const { unmount } = renderApp('/admin/user/list', { user: kefu, permissions: [listUser], backend: userBackend });
    expect(await screen.findByText('carol')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: '操作' })).toBeNull();
    unmount();

    renderApp('/admin/user/list', {
      user: kefu,
      permissions: [listUser, perm(13, '/api.v1.UserAPI/AdjustUserCredit', '调整用户积分')],
      backend: userBackend,
    });
    expect(await screen.findByText('carol')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeTruthy();
  });

  it('shows avatars, groups and the account status from active 禁用账号 punishments', async () => {
    renderApp('/admin/user/list', { user: admin, permissions: listPermissions, backend: userBackend });
    const bob = (await screen.findByText('bob')).closest('tr') as HTMLElement;
    expect(within(bob).getByRole('img', { name: 'bob' }).getAttribute('src')).toBe('/uploads/b.png');
    expect(within(bob).getByText('普通用户')).toBeTruthy();
    expect(within(bob).getByText('正常')).toBeTruthy();
    expect(within(screen.getByText('carol').closest('tr') as HTMLElement).getByText('禁用')).toBeTruthy();
    expect(screen.getByRole('button', { name: /删除“admin”/ }).getAttribute('aria-description')).toBe(
      '超级管理员不能删除',
    );
  });

  it('asks for the admin password before deleting a user', async () => {
    const backend: Backend = {
      ...userBackend,
      'DELETE /api/v1/user': { status: 400, body: { code: 3, message: '密码错误' } },
    };
    const { fetchMock } = renderApp('/admin/user/list', { user: admin, permissions: listPermissions, backend });
    await userEvent.click(await screen.findByRole('button', { name: /删除“bob”/ }));
    const dialog = within(document.querySelector('.semi-modal') as HTMLElement);
    await userEvent.click(dialog.getByRole('button', { name: '删除' }));
    expect(dialog.getByText('请输入您的登录密码')).toBeTruthy();
    expect(requests(fetchMock, 'DELETE', '/api/v1/user')).toHaveLength(0);
    await userEvent.type(dialog.getByLabelText('请输入您的登录密码以确认'), 'wrong-pass');
    await userEvent.click(dialog.getByRole('button', { name: '删除' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '删除失败')?.description).toBe('密码错误'));
    const url = new URL(String(requests(fetchMock, 'DELETE', '/api/v1/user')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.getAll('id')).toEqual(['5']);
    expect(url.searchParams.get('password')).toBe('wrong-pass');
  });
});

describe('actions and permissions', () => {
  it('shows only the actions whose permissions the user holds', async () => {
    const backend: Backend = {
      'GET /api/v1/friendlink/list': {
        status: 200,
        body: { friendlink: [{ id: 1, title: '书栈网', link: 'https://www.bookstack.cn' }], total: 1 },
      },
    };
    const editor = { id: 9, username: 'editor' };
    renderApp('/admin/friendlink', {
      user: editor,
      permissions: [
        perm(1, '/api.v1.FriendlinkAPI/ListFriendlink', '友链列表'),
        perm(2, '/api.v1.FriendlinkAPI/UpdateFriendlink', '更新友链'),
      ],
      backend,
    });
    expect(await screen.findByRole('button', { name: /编辑“书栈网”/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新建友链/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /删除“书栈网”/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /批量删除/ })).toBeNull();
  });

  it('says that a deleted article goes to the recycle bin, not that it is gone for good', async () => {
    renderApp('/admin/article/list', {
      user: admin,
      permissions: [
        perm(1, '/api.v1.ArticleAPI/ListArticle', '文章列表'),
        perm(2, '/api.v1.ArticleAPI/DeleteArticle', '删除文章'),
      ],
      backend: {
        'GET /api/v1/article/list': {
          status: 200,
          body: { article: [{ id: 3, title: '站点公告', status: 1 }], total: 1 },
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /删除“站点公告”/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/删除的文章会移入回收站，可以在回收站恢复/)).toBeTruthy();
    expect(within(dialog).queryByText(/此操作不可恢复/)).toBeNull();
  });

  it('says a role without UpdateArticle may not edit, instead of a form it could not save', async () => {
    const list = perm(1, '/api.v1.ArticleAPI/ListArticle', '文章列表');
    const backend: Backend = {
      'GET /api/v1/article': { status: 200, body: { id: 3, title: '站点公告', content: '<p>正文</p>', status: 1 } },
    };
    const { unmount } = renderApp('/admin/article/set?id=3', {
      user: { id: 9, username: 'kefu' },
      permissions: [list],
      backend,
    });
    expect((await screen.findByRole('note')).textContent).toBe('您没有修改文章的权限，请联系管理员。');
    expect(screen.queryByRole('form')).toBeNull();
    unmount();

    renderApp('/admin/article/set?id=3', {
      user: { id: 9, username: 'editor' },
      permissions: [list, perm(2, '/api.v1.ArticleAPI/UpdateArticle', '更新文章')],
      backend,
    });
    expect(await screen.findByRole('form', { name: '编辑文章' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('links 文章分类 from an article form without categories, for a role that may open that screen', async () => {
    const writer = [
      perm(1, '/api.v1.ArticleAPI/ListArticle', '文章列表'),
      perm(2, '/api.v1.ArticleAPI/CreateArticle', '创建文章'),
    ];
    const backend: Backend = { 'GET /api/v1/category/list': { status: 200, body: { category: [], total: 0 } } };
    const { unmount } = renderApp('/admin/article/set', {
      user: { id: 9, username: 'kefu' },
      permissions: writer,
      backend,
    });
    const told = await screen.findByText('暂无文章分类');
    expect(told.closest('fieldset')?.querySelector('a')).toBeNull();
    unmount();

    renderApp('/admin/article/set', {
      user: { id: 9, username: 'editor' },
      permissions: [...writer, perm(3, '/api.v1.CategoryAPI/ListCategory', '分类列表')],
      backend,
    });
    const categories = await screen.findByRole('group', { name: '分类' });
    expect(within(categories).getByText(/暂无文章分类，请先在/).textContent).toBe('暂无文章分类，请先在文章分类中添加');
    expect(within(categories).getByRole('link', { name: '文章分类' }).getAttribute('href')).toBe(
      '/admin/article/category',
    );
  });

  it('links a member’s article in review to its page for a reviewer holding GetArticle', async () => {
    const articles: Backend = {
      'GET /api/v1/article/list': {
        status: 200,
        body: { article: [{ id: 4, identifier: 'draft-4', title: '会员投稿', status: 0 }], total: 1 },
      },
    };
    const list = perm(1, '/api.v1.ArticleAPI/ListArticle', '文章列表');
    const { unmount } = renderApp('/admin/article/list', {
      user: { id: 9, username: 'kefu' },
      permissions: [list],
      backend: articles,
    });
    expect(await screen.findByText('会员投稿')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '会员投稿' })).toBeNull();
    unmount();

    renderApp('/admin/article/list', {
      user: { id: 9, username: 'reviewer' },
      permissions: [list, perm(2, '/api.v1.ArticleAPI/GetArticle', '查阅所有状态文章')],
      backend: articles,
    });
    const title = await screen.findByRole('link', { name: '会员投稿' });
    expect(title.getAttribute('href')).toBe('/article/detail/draft-4');
  });

  it('offers 编辑 on an article only to a role holding UpdateArticle', async () => {
    const articles: Backend = {
      'GET /api/v1/article/list': {
        status: 200,
        body: { article: [{ id: 3, title: '站点公告', status: 1 }], total: 1 },
      },
    };
    const list = perm(1, '/api.v1.ArticleAPI/ListArticle', '文章列表');
    const { unmount } = renderApp('/admin/article/list', {
      user: { id: 9, username: 'kefu' },
      permissions: [list],
      backend: articles,
    });
    expect(await screen.findByText('站点公告')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '编辑“站点公告”' })).toBeNull();
    unmount();

    renderApp('/admin/article/list', {
      user: { id: 9, username: 'editor' },
      permissions: [list, perm(2, '/api.v1.ArticleAPI/UpdateArticle', '更新文章')],
      backend: articles,
    });
    const edit = await screen.findByRole('link', { name: '编辑“站点公告”' });
    expect(edit.getAttribute('href')).toBe('/admin/article/set?id=3');
  });
});

describe('dashboard', () => {
  it('counts what waits for review, each a link to its filtered list, for the lists the user holds', async () => {
    const { fetchMock } = renderApp('/admin/dashboard', {
      user: { id: 9, username: 'editor' },
      permissions: [
        perm(61, '/api.v1.DocumentAPI/ListDocument', '获取文档列表'),
        perm(71, '/api.v1.CommentAPI/ListComment', '获取评论列表'),
      ],
      backend: {
        'GET /api/v1/document/list': (url) => ({
          status: 200,
          body: url.searchParams.getAll('status').join() === '6' ? { document: [{ id: 1 }], total: 4 } : {},
        }),
        'GET /api/v1/comment/list': (url) => ({
          status: 200,
          body: url.searchParams.getAll('status').join() === '0' ? { comment: [{ id: 1 }], total: 17 } : {},
        }),
      },
    });
    const panel = within((await screen.findByRole('heading', { name: '待处理' })).closest('section') as HTMLElement);
    const documents = await panel.findByRole('link', { name: '待审核文档 4 篇' });
    expect(documents.getAttribute('href')).toBe('/admin/document/list?status=6');
    const comments = await panel.findByRole('link', { name: '待审核评论 17 条' });
    expect(comments.getAttribute('href')).toBe('/admin/comment?status=0');
    expect(panel.queryByText('待审核文章')).toBeNull();
    expect(panel.queryByText('未处理举报')).toBeNull();
    const asked = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost').pathname);
    expect(asked).not.toContain('/api/v1/report/list');
    expect(asked).not.toContain('/api/v1/article/list');
  });

  it('counts the documents whose conversion failed and the feedback not yet handled, each a link to its list', async () => {
    renderApp('/admin/dashboard', {
      user: { id: 9, username: 'editor' },
      permissions: [
        perm(61, '/api.v1.DocumentAPI/ListDocument', '获取文档列表'),
        perm(81, '/api.v1.FeedbackAPI/ListFeedback', '获取意见反馈列表'),
      ],
      backend: {
        'GET /api/v1/document/list': (url) => ({
          status: 200,
          body: url.searchParams.getAll('status').join() === '3' ? { document: [{ id: 1 }], total: 2 } : {},
        }),
        'GET /api/v1/feedback/list': (url) => ({
          status: 200,
          body: url.searchParams.getAll('status').join() === '0' ? { feedback: [{ id: 1 }], total: 5 } : {},
        }),
      },
    });
    const panel = within((await screen.findByRole('heading', { name: '待处理' })).closest('section') as HTMLElement);
    const failed = await panel.findByRole('link', { name: '转换失败文档 2 篇' });
    expect(failed.getAttribute('href')).toBe('/admin/document/list?status=3');
    const feedback = await panel.findByRole('link', { name: '待处理反馈 5 条' });
    expect(feedback.getAttribute('href')).toBe('/admin/feedback?status=0');
  });

  it('counts the transfers waiting for 确认收款, a link to the orders filtered so', async () => {
    const { fetchMock } = renderApp('/admin/dashboard', {
      user: { id: 9, username: 'editor' },
      permissions: [perm(91, '/api.v1.OrderAPI/ListOrder', '获取订单列表')],
      backend: {
        'GET /api/v1/order/list': (url) => ({
          status: 200,
          body:
            url.searchParams.getAll('status').join() === '0' && url.searchParams.getAll('provider').join() === 'manual'
              ? { order: [{ id: 1 }], total: 3 }
              : { order: [{ id: 1 }], total: 9 },
        }),
      },
    });
    const panel = within((await screen.findByRole('heading', { name: '待处理' })).closest('section') as HTMLElement);
    const orders = await panel.findByRole('link', { name: '待确认收款 3 笔' });
    expect(orders.getAttribute('href')).toBe('/admin/order?status=0&provider=manual');
    expect(panel.getAllByRole('link')).toHaveLength(1);
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/v1/order/list'))).toBe(true);
  });

  it('offers shortcuts to the screens the user may open, menu-less ones included', async () => {
    renderApp('/admin/dashboard', {
      user: admin,
      permissions: [
        perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表'),
        perm(41, '/api.v1.PunishmentAPI/ListPunishment', '获取用户处罚列表'),
      ],
      backend: { 'GET /api/v1/stats': { status: 200, body: { user_count: 3, document_count: 0 } } },
    });
    const shortcuts = within(
      (await screen.findByRole('heading', { name: '快捷入口' })).closest('section') as HTMLElement,
    );
    expect(shortcuts.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['用户管理', '/admin/user/list'],
      ['短信管理', '/admin/user/sms'],
      ['处罚管理', '/admin/user/punishment'],
    ]);
  });

  it('offers 短信管理 in the menu and the shortcuts only to a role that may read its log or counters', async () => {
    const kefu = { id: 9, username: 'kefu' };
    const listUser = perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表');
    const stats = perm(12, '/api.v1.UserAPI/GetSmsStats', '短信发送统计');
    const backend: Backend = { 'GET /api/v1/user/sms/stats': { status: 200, body: {} } };
    const offered = async (path: string) => {
      const shortcut = async () =>
        within(
          (await screen.findByRole('heading', { name: '快捷入口' })).closest('section') as HTMLElement,
        ).queryByRole('link', { name: '短信管理' }) !== null;
      // On the SMS page itself (still open to them, and explained), its menu group is open.
      const entry = async () =>
        (await screen.findByRole('heading', { name: '短信管理', level: 1 })) &&
        screen.queryByRole('menuitem', { name: '短信管理' }) !== null;
      return path === '/admin/dashboard' ? shortcut() : entry();
    };
    for (const [permissions, shown] of [
      [[listUser], false],
      [[listUser, stats], true],
    ] as const) {
      for (const path of ['/admin/dashboard', '/admin/user/sms']) {
        const { unmount } = renderApp(path, { user: kefu, permissions: [...permissions], backend });
        expect([path, await offered(path)]).toEqual([path, shown]);
        unmount();
      }
    }
  });

  it('shows the figures and the system information only with the GetStats permission', async () => {
    const backend: Backend = {
      'GET /api/v1/stats': {
        status: 200,
        body: { user_count: 3, document_count: 5, friendlink_count: 2, version: 'v9.9.9', os: 'Debian' },
      },
    };
    const { fetchMock, unmount } = renderApp('/admin/dashboard', {
      user: { id: 9, username: 'editor' },
      permissions: [perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表')],
      backend,
    });
    await screen.findByRole('heading', { name: '快捷入口' });
    expect(screen.queryByText('网站数据')).toBeNull();
    expect(screen.queryByText('系统信息')).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/v1/stats');
    unmount();

    renderApp('/admin/dashboard', {
      user: { id: 9, username: 'editor' },
      permissions: [
        perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表'),
        perm(62, '/api.v1.ConfigAPI/GetStats', '查看系统信息'),
      ],
      backend,
    });
    expect(await screen.findByText('v9.9.9')).toBeTruthy();
    const figures = within(screen.getByRole('heading', { name: /网站数据/ }).closest('section') as HTMLElement);
    expect(figures.getByText('友链').nextElementSibling?.textContent).toBe('2');
    expect(screen.getByText('Debian')).toBeTruthy();
  });

  it('counts the accounts under 用户, without the 网站虚拟注册用户数 the home page adds', async () => {
    renderApp('/admin/dashboard', {
      user: admin,
      permissions: [perm(62, '/api.v1.ConfigAPI/GetStats', '查看系统信息')],
      backend: {
        'GET /api/v1/stats': { status: 200, body: { user_count: 1026, virtual_user_count: 1000, friendlink_count: 2 } },
      },
    });
    const heading = await screen.findByRole('heading', { name: /网站数据/ });
    const figures = within(heading.closest('section') as HTMLElement);
    expect(figures.getByText('用户').nextElementSibling?.textContent).toBe('26');
  });

  it('warns of a conversion backlog and of conversions waiting with no worker, and says nothing while all is well', async () => {
    const notice = async (body: Record<string, number>) => {
      const { unmount } = renderApp('/admin/dashboard', {
        user: admin,
        permissions: [perm(62, '/api.v1.ConfigAPI/GetStats', '查看系统信息')],
        backend: { 'GET /api/v1/stats': { status: 200, body: { document_count: 6, ...body } } },
      });
      await screen.findByRole('heading', { name: /网站数据/ });
      const warning = screen
        .queryAllByText(/转换队列积压|没有转换进程/)[0]
        ?.closest('.app-admin-dashboard__conversion');
      const text = warning?.textContent ?? null;
      if (warning) {
        const link = within(warning as HTMLElement).getByRole('link', { name: '查看待转换文档' });
        expect(link.getAttribute('href')).toBe('/admin/document/list?status=0');
      }
      unmount();
      return text;
    };
    // Workers busy with a long queue: the backlog only.
    expect(
      await notice({ conversion_waiting: 12, conversion_waiting_seconds: 25 * 60 + 40, conversion_workers: 2 }),
    ).toBe('转换队列积压：12 个文档等待转换，最早的已等待 25 分钟。查看待转换文档');
    // Every worker stopped: the backlog and its cause.
    expect(await notice({ conversion_waiting: 3, conversion_waiting_seconds: 2 * 3600 })).toBe(
      '转换队列积压：3 个文档等待转换，最早的已等待 120 分钟。没有转换进程在运行：等待转换的文档不会开始转换，请检查运行任务的服务。查看待转换文档',
    );
    // No worker for two minutes, before it makes a backlog.
    expect(await notice({ conversion_waiting: 1, conversion_waiting_seconds: 120 })).toBe(
      '没有转换进程在运行：等待转换的文档不会开始转换，请检查运行任务的服务。查看待转换文档',
    );
    // All well: nothing waits; a queue moving under its workers; an upload just queued, claimed at the next poll.
    expect(await notice({})).toBeNull();
    expect(await notice({ conversion_waiting: 4, conversion_waiting_seconds: 300, conversion_workers: 1 })).toBeNull();
    expect(await notice({ conversion_waiting: 1, conversion_waiting_seconds: 2 })).toBeNull();
  });

  it('says an outage once, with one 重试 that asks every panel again, and a lone failure in its panel', async () => {
    const outage = { status: 503, body: { code: 14, message: '数据库暂时不可用，请稍后再试' } };
    let down = true;
    const answer = (ok: Reply) => () => (down ? outage : ok);
    const calls: Backend = {
      'GET /api/v1/setup/checklist': answer({ status: 200, body: { missing: ['category'] } }),
      'GET /api/v1/stats': answer({ status: 200, body: { document_count: 6, friendlink_count: 2 } }),
      'GET /api/v1/envs': answer({ status: 200, body: { envs: [{ name: 'LibreOffice', is_installed: true }] } }),
      ...Object.fromEntries(
        ['document', 'article', 'comment', 'report', 'feedback', 'order'].map((list) => [
          `GET /api/v1/${list}/list`,
          answer({ status: 200, body: { total: 4 } }),
        ]),
      ),
    };
    const { unmount } = renderApp('/admin/dashboard', { user: admin, backend: calls });
    // Ten calls failed for one reason: said once, not 加载失败 in each panel and count.
    await waitFor(() => {
      expect(screen.queryByRole('heading', { name: '待处理' })).toBeNull();
      expect(screen.getAllByText('加载失败')).toHaveLength(1);
    });
    const notice = screen.getByRole('alert');
    expect(notice.textContent).toBe('加载失败数据库暂时不可用，请稍后再试重试');
    expect(screen.getAllByText('数据库暂时不可用，请稍后再试')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: '重试' })).toHaveLength(1);
    expect(screen.getByRole('heading', { name: '控制面板' })).toBeTruthy();

    // Back: one 重试 fills every panel.
    down = false;
    await userEvent.click(within(notice).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('link', { name: '待审核文档 4 篇' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: /网站数据/ })).toBeTruthy();
    expect(await screen.findByText('还没有文档分类')).toBeTruthy();
    expect(await screen.findByText('LibreOffice')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    unmount();

    // One call failing alone is said in its panel, with its own 重试.
    renderApp('/admin/dashboard', {
      user: admin,
      backend: { ...calls, 'GET /api/v1/stats': outage },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('加载失败数据库暂时不可用，请稍后再试重试');
    expect(await screen.findByRole('link', { name: '待审核文档 4 篇' })).toBeTruthy();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('heading', { name: /网站数据/ })).toBeNull();
  });

  it('holds a failure back while the calls still out may make an outage, and says it once they cannot', async () => {
    const outage = { status: 503, body: { code: 14, message: '数据库暂时不可用，请稍后再试' } };
    const up: Backend = {
      'GET /api/v1/setup/checklist': { status: 200, body: { missing: ['category'] } },
      'GET /api/v1/envs': { status: 200, body: { envs: [{ name: 'LibreOffice', is_installed: true }] } },
      ...Object.fromEntries(
        ['document', 'article', 'comment', 'report', 'feedback', 'order'].map((list) => [
          `GET /api/v1/${list}/list`,
          { status: 200, body: { total: 4 } },
        ]),
      ),
    };
    const down = Object.fromEntries(Object.keys(up).map((call) => [call, outage]));
    const statsFailed = (queryClient: ReturnType<typeof renderApp>['queryClient']) =>
      waitFor(() =>
        expect(queryClient.getQueryCache().find({ queryKey: statsQuery().queryKey, exact: true })?.state.status).toBe(
          'error',
        ),
      );

    // The stats call fails first, the nine others still out: neither its failure nor 加载失败 yet,
    // then the outage said once when they fail too.
    const first = renderApp('/admin/dashboard', { user: admin, backend: { ...down, 'GET /api/v1/stats': outage } });
    let release = holdCalls(first.fetchMock, (url) => url.pathname !== '/api/v1/stats');
    await statsFailed(first.queryClient);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('加载失败')).toBeNull();
    release();
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toBe('加载失败数据库暂时不可用，请稍后再试重试');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    first.unmount();

    // The others answer: the stats failure alone is said in its panel.
    const second = renderApp('/admin/dashboard', { user: admin, backend: { ...up, 'GET /api/v1/stats': outage } });
    release = holdCalls(second.fetchMock, (url) => url.pathname !== '/api/v1/stats');
    await statsFailed(second.queryClient);
    expect(screen.queryByRole('alert')).toBeNull();
    release();
    expect(await screen.findByRole('link', { name: '待审核文档 4 篇' })).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('加载失败数据库暂时不可用，请稍后再试重试');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    second.unmount();

    // Enough answered that no outage can come of the one call still out: said at once.
    const third = renderApp('/admin/dashboard', { user: admin, backend: { ...up, 'GET /api/v1/stats': outage } });
    holdCalls(third.fetchMock, (url) => url.pathname === '/api/v1/envs');
    expect((await screen.findByRole('alert')).textContent).toBe('加载失败数据库暂时不可用，请稍后再试重试');
    expect(screen.queryByText('LibreOffice')).toBeNull();
    third.unmount();
  });

  it('names what its document and article figures count: the public documents and the published articles', async () => {
    renderApp('/admin/dashboard', {
      user: admin,
      permissions: [perm(62, '/api.v1.ConfigAPI/GetStats', '查看系统信息')],
      backend: { 'GET /api/v1/stats': { status: 200, body: { document_count: 6, article_count: 11 } } },
    });
    const heading = await screen.findByRole('heading', { name: /网站数据/ });
    const figures = within(heading.closest('section') as HTMLElement);
    expect(figures.getByText('公开文档').nextElementSibling?.textContent).toBe('6');
    expect(figures.getByText('已发布文章').nextElementSibling?.textContent).toBe('11');
  });
});
