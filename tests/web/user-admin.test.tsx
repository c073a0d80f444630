// The admin's users and punishments (/admin/user/list, /admin/user/punishment) and the VIP
// members' 开通会员 (/admin/user/vip): what is saved when, and what the admin is told.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDate, SHORT_DATE_FORMAT } from '../../shared/format';
import type { Permission } from '../../shared/types/permission';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { admin, newSiteGroups, renderApp, settings, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const perm = (id: number, path: string, title: string): Permission => ({ id, method: 'GRPC', path, title });

type FetchMock = ReturnType<typeof renderApp>['fetchMock'];
const calls = (fetchMock: FetchMock, method?: string, path?: string) =>
  fetchMock.mock.calls
    .map(([url, init]) => ({
      method: init?.method ?? 'GET',
      path: new URL(String(url), 'http://localhost').pathname,
      body: init?.body,
    }))
    .filter((c) => (!method || c.method === method) && (!path || c.path === path));

describe('编辑用户', () => {
  const users = [
    { id: 1, username: 'admin', group_id: [1] },
    { id: 5, username: 'bob', group_id: [2], email: 'bob@example.com' },
  ];
  const permissions = [
    perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表'),
    perm(12, '/api.v1.UserAPI/SetUser', '设置用户'),
  ];
  const backend = (writes: Backend): Backend => ({
    'GET /api/v1/group/list': newSiteGroups,
    'GET /api/v1/user/list': { status: 200, body: { user: users, total: users.length } },
    'GET /api/v1/punishment/list': { status: 200, body: { punishment: [], total: 0 } },
    ...writes,
  });

  async function editBob(fetchMock: FetchMock) {
    await userEvent.click(await screen.findByRole('button', { name: /编辑“bob”/ }));
    const sheet = within(await screen.findByRole('form', { name: '编辑用户' }));
    await userEvent.type(sheet.getByLabelText('新密码'), 'new-secret-1');
    await userEvent.type(sheet.getByLabelText('手机号'), '13812345678');
    const email = sheet.getByLabelText('邮箱');
    await userEvent.clear(email);
    await userEvent.type(email, 'carol@example.com');
    const listed = calls(fetchMock, 'GET', '/api/v1/user/list').length;
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    return listed;
  }

  it('tells under 角色 that a role opens the back office only through the permissions granted to it', async () => {
    renderApp('/admin/user/list', { user: admin, permissions, backend: backend({}) });
    await userEvent.click(await screen.findByRole('button', { name: /编辑“bob”/ }));
    const sheet = within(await screen.findByRole('form', { name: '编辑用户' }));
    // A new site's 超级管理员 holds no permission: choosing it alone makes nobody an admin.
    expect(sheet.getByText(/新站点的“超级管理员”角色还没有任何权限/).textContent).toContain(
      '“角色管理”中点角色的“权限”',
    );
  });

  it('sends the profile first: a taken e-mail leaves the password and groups unchanged', async () => {
    const { fetchMock } = renderApp('/admin/user/list', {
      user: admin,
      permissions,
      backend: backend({
        'PUT /api/v1/user/profile': { status: 409, body: { code: 6, message: '邮箱已存在' } },
        'PUT /api/v1/user': { status: 200, body: {} },
      }),
    });
    await editBob(fetchMock);
    await waitFor(() => expect(toasts.value.find((t) => t.title === '保存失败')?.description).toBe('邮箱已存在'));
    expect(calls(fetchMock, 'PUT', '/api/v1/user')).toHaveLength(0);
    expect(JSON.parse(String(calls(fetchMock, 'PUT', '/api/v1/user/profile')[0]?.body))).toMatchObject({
      id: 5,
      email: 'carol@example.com',
      mobile: '13812345678',
    });
    expect(screen.getByRole('form', { name: '编辑用户' })).toBeTruthy();
  });

  it('saves the password and groups after the profile, and refreshes the list', async () => {
    const { fetchMock } = renderApp('/admin/user/list', {
      user: admin,
      permissions,
      backend: backend({
        'PUT /api/v1/user/profile': { status: 200, body: {} },
        'PUT /api/v1/user': { status: 200, body: {} },
      }),
    });
    const listed = await editBob(fetchMock);
    await waitFor(() => expect(toasts.value.some((t) => t.title === '保存成功')).toBe(true));
    expect(calls(fetchMock, 'PUT').map((c) => c.path)).toEqual(['/api/v1/user/profile', '/api/v1/user']);
    expect(JSON.parse(String(calls(fetchMock, 'PUT', '/api/v1/user')[0]?.body))).toEqual({
      id: 5,
      group_id: [2],
      password: 'new-secret-1',
    });
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/v1/user/list').length).toBeGreaterThan(listed));
  });

  it('says what was saved when the second call fails, and refreshes the list', async () => {
    const { fetchMock } = renderApp('/admin/user/list', {
      user: admin,
      permissions,
      backend: backend({
        'PUT /api/v1/user/profile': { status: 200, body: {} },
        'PUT /api/v1/user': { status: 400, body: { code: 3, message: '用户组不能为空' } },
      }),
    });
    const listed = await editBob(fetchMock);
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '保存失败')?.description).toBe(
        '资料已保存，新密码和角色未保存：用户组不能为空',
      ),
    );
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/v1/user/list').length).toBeGreaterThan(listed));
  });
});

describe('用户列表', () => {
  it("shows the credits each user holds under the name, in the site's name of its credits", async () => {
    renderApp('/admin/user/list', {
      user: admin,
      permissions: [perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表')],
      settings: { ...settings, system: { ...settings.system, credit_name: '魔豆' } },
      backend: {
        'GET /api/v1/group/list': { status: 200, body: { group: [{ id: 2, title: '普通用户' }] } },
        // The admin's list gives every column; a zero is left out of the answer.
        'GET /api/v1/user/list': {
          status: 200,
          body: {
            user: [
              { id: 5, username: 'bob', group_id: [2], credit_count: 25 },
              { id: 6, username: 'eve', group_id: [2] },
            ],
            total: 2,
          },
        },
        'GET /api/v1/punishment/list': { status: 200, body: { punishment: [], total: 0 } },
      },
    });
    const bob = (await screen.findByText('bob')).closest('tr') as HTMLElement;
    expect(within(bob).getByText('魔豆 25')).toBeTruthy();
    expect(within(screen.getByText('eve').closest('tr') as HTMLElement).getByText('魔豆 0')).toBeTruthy();
  });
});

describe('用户列表 · 状态', () => {
  const backend: Backend = {
    'GET /api/v1/group/list': { status: 200, body: { group: [{ id: 2, title: '普通用户' }] } },
    'GET /api/v1/user/list': {
      status: 200,
      body: { user: [{ id: 5, username: 'bob', group_id: [2] }], total: 1 },
    },
    'GET /api/v1/punishment/list': { status: 403, body: { code: 7, message: '您没有权限访问【获取用户处罚列表】' } },
  };

  it('asks no punishments of an admin who may not read them, and offers no 状态 to filter by', async () => {
    // Not the super admin (id 1), who holds every permission.
    const { fetchMock } = renderApp('/admin/user/list', {
      user: { id: 7, username: 'editor' },
      permissions: [perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表')],
      backend,
    });
    expect(await screen.findByText('bob')).toBeTruthy();
    expect(calls(fetchMock, 'GET', '/api/v1/punishment/list')).toEqual([]);
    expect(screen.queryByRole('columnheader', { name: '状态' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: '状态' })).toBeNull();
  });

  it('shows who is disabled to an admin who may read the punishments', async () => {
    renderApp('/admin/user/list', {
      user: { id: 7, username: 'editor' },
      permissions: [
        perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表'),
        perm(21, '/api.v1.PunishmentAPI/ListPunishment', '获取用户处罚列表'),
      ],
      backend: {
        ...backend,
        'GET /api/v1/punishment/list': {
          status: 200,
          body: { punishment: [{ id: 1, user_id: 5, type: 1, enable: true }], total: 1 },
        },
      },
    });
    const bob = (await screen.findByText('bob')).closest('tr') as HTMLElement;
    expect(await within(bob).findByText('禁用')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: '状态' })).toBeTruthy();
  });
});

describe('用户列表 · 调整魔豆', () => {
  const backend: Backend = {
    'GET /api/v1/group/list': { status: 200, body: { group: [{ id: 2, title: '普通用户' }] } },
    'GET /api/v1/user/list': {
      status: 200,
      body: { user: [{ id: 5, username: 'bob', group_id: [2], credit_count: 25 }], total: 1 },
    },
    'GET /api/v1/punishment/list': { status: 200, body: { punishment: [], total: 0 } },
    'PUT /api/v1/user/credit': { status: 200, body: {} },
  };
  const creditSettings = { ...settings, system: { ...settings.system, credit_name: '魔豆' } };

  it('takes away no more than the balance, and sends the change with its reason', async () => {
    const { fetchMock } = renderApp('/admin/user/list', {
      user: admin,
      permissions: [
        perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表'),
        perm(13, '/api.v1.UserAPI/AdjustUserCredit', '调整用户积分'),
      ],
      settings: creditSettings,
      backend,
    });
    await userEvent.click(await screen.findByRole('button', { name: '调整“bob”的魔豆' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('正数增加，负数扣除；当前 25 魔豆')).toBeTruthy();
    const amount = dialog.getByLabelText('调整数量');
    await userEvent.type(amount, '-30');
    await userEvent.type(dialog.getByLabelText('原因'), '违规发帖');
    await userEvent.click(dialog.getByRole('button', { name: '确定' }));
    expect(await dialog.findByText('余额不足，最多可扣除 25 魔豆')).toBeTruthy();
    expect(calls(fetchMock, 'PUT', '/api/v1/user/credit')).toHaveLength(0);
    await userEvent.clear(amount);
    await userEvent.type(amount, '-5');
    const listed = calls(fetchMock, 'GET', '/api/v1/user/list').length;
    await userEvent.click(dialog.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '魔豆已调整')).toBe(true));
    expect(JSON.parse(String(calls(fetchMock, 'PUT', '/api/v1/user/credit')[0]?.body))).toEqual({
      id: 5,
      amount: -5,
      reason: '违规发帖',
    });
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/v1/user/list').length).toBeGreaterThan(listed));
  });

  it('offers no 调整魔豆 to an admin without the permission', async () => {
    // Not the super admin (id 1), who holds every permission.
    renderApp('/admin/user/list', {
      user: { id: 7, username: 'editor' },
      permissions: [perm(11, '/api.v1.UserAPI/ListUser', '查看用户列表')],
      settings: creditSettings,
      backend,
    });
    expect(await screen.findByText('bob')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '调整“bob”的魔豆' })).toBeNull();
  });
});

describe('处罚管理', () => {
  const permissions = [
    perm(1, '/api.v1.PunishmentAPI/ListPunishment', '获取用户处罚列表'),
    perm(2, '/api.v1.PunishmentAPI/CancelPunishment', '取消用户处罚'),
  ];

  it('shows when a punishment was ended (结束), not 永久', async () => {
    const cancelTs = Math.floor(Date.parse('2026-03-04T05:06:00Z') / 1000);
    const created = JSON.stringify([{ u: 1, t: 1, ts: cancelTs - 86_400 }]);
    const rows = [
      {
        id: 7,
        user_id: 5,
        username: 'bob',
        type: 2,
        enable: true,
        reason: '刷屏',
        operators: created,
        created_at: '2026-03-03T05:06:00Z',
      },
      {
        id: 8,
        user_id: 6,
        username: 'carol',
        type: 3,
        enable: true,
        operators: created,
        created_at: '2026-03-03T05:06:00Z',
      },
    ];
    const { fetchMock } = renderApp('/admin/user/punishment', {
      user: admin,
      permissions,
      backend: {
        'GET /api/v1/punishment/list': () => ({ status: 200, body: { punishment: rows, total: rows.length } }),
        'PUT /api/v1/punishment/cancel': (_url, init) => {
          const { id } = JSON.parse(String(init.body)) as { id: number[] };
          for (const row of rows.filter((r) => id.includes(r.id))) {
            row.enable = false;
            row.operators = JSON.stringify([...(JSON.parse(row.operators) as unknown[]), { u: 1, t: 3, ts: cancelTs }]);
          }
          return { status: 200, body: {} };
        },
      },
    });
    const bob = () => screen.getByText('bob').closest('tr') as HTMLElement;
    await screen.findByText('bob');
    expect(within(bob()).getByText('永久')).toBeTruthy();
    await userEvent.click(within(bob()).getByRole('button', { name: /结束/ }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /确定|结束/ }));
    await waitFor(() => expect(calls(fetchMock, 'PUT', '/api/v1/punishment/cancel')).toHaveLength(1));
    await waitFor(() => expect(within(bob()).getByText('已结束')).toBeTruthy());
    expect(within(bob()).queryByText('永久')).toBeNull();
    expect(
      within(bob()).getByText(formatDate(new Date(cancelTs * 1000).toISOString(), SHORT_DATE_FORMAT)),
    ).toBeTruthy();
    // The one still in force stays permanent.
    expect(within(screen.getByText('carol').closest('tr') as HTMLElement).getByText('永久')).toBeTruthy();
  });

  it('shows the end time of a cancelled punishment that had run out before', async () => {
    const operators = JSON.stringify([
      { u: 1, t: 1, ts: 1_700_000_000 },
      { u: 1, t: 3, ts: 1_800_000_000 },
    ]);
    const endTime = new Date(1_750_000_000_000).toISOString();
    renderApp('/admin/user/punishment', {
      user: admin,
      permissions,
      backend: {
        'GET /api/v1/punishment/list': {
          status: 200,
          body: {
            punishment: [{ id: 9, user_id: 5, username: 'bob', type: 2, enable: false, end_time: endTime, operators }],
            total: 1,
          },
        },
      },
    });
    const bob = (await screen.findByText('bob')).closest('tr') as HTMLElement;
    expect(within(bob).getByText(formatDate(endTime, SHORT_DATE_FORMAT))).toBeTruthy();
  });
});

describe('会员管理 · 开通会员', () => {
  /** Opens the 开通会员 sheet, picks amy and gives the reason 活动赠送. */
  const fillGrantForAmy = async () => {
    await userEvent.click(await screen.findByRole('button', { name: /开通会员/ }));
    const form = await screen.findByRole('form', { name: '开通会员' });
    await userEvent.click(form.querySelector('.semi-select') as HTMLElement);
    const amy = await waitFor(() => {
      const option = [...document.querySelectorAll('.semi-select-option')].find((o) => o.textContent === 'amy');
      expect(option).toBeTruthy();
      return option as HTMLElement;
    });
    await userEvent.click(amy);
    await userEvent.type(within(form).getByLabelText('原因'), '活动赠送');
  };

  it('says for whom membership was granted, not 创建成功, from a sheet whose button says 开通', async () => {
    const { fetchMock } = renderApp('/admin/user/vip', {
      user: admin,
      permissions: [
        perm(1, '/api.v1.UserVipAPI/ListUserVip', '会员列表'),
        perm(2, '/api.v1.UserVipAPI/GrantUserVip', '开通或延长会员'),
      ],
      backend: {
        'GET /api/v1/vip/list': { status: 200, body: { total: 0, user_vip: [] } },
        'GET /api/v1/user/list': {
          status: 200,
          body: {
            total: 2,
            user: [
              { id: 2, username: 'amy' },
              { id: 3, username: 'ben' },
            ],
          },
        },
        'POST /api/v1/vip/grant': { status: 200, body: {} },
      },
    });
    await fillGrantForAmy();
    expect(screen.queryByRole('button', { name: '创建' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '开通' }));
    await waitFor(() => expect(calls(fetchMock, 'POST', '/api/v1/vip/grant')).toHaveLength(1));
    expect(JSON.parse(String(calls(fetchMock, 'POST', '/api/v1/vip/grant')[0]?.body))).toEqual({
      user_id: [2],
      days: 30,
      reason: '活动赠送',
    });
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '开通成功')?.description).toBe('已为 amy 开通会员（30 天）'),
    );
    expect(toasts.value.some((t) => t.title === '创建成功')).toBe(false);
  });

  it('says 开通失败, not 创建失败, when the server refuses a grant, and keeps the sheet', async () => {
    const refusal = '用户“amy”的会员到期时间不能晚于 9999-12-31，最多还能延长 10 天';
    renderApp('/admin/user/vip', {
      user: admin,
      permissions: [
        perm(1, '/api.v1.UserVipAPI/ListUserVip', '会员列表'),
        perm(2, '/api.v1.UserVipAPI/GrantUserVip', '开通或延长会员'),
      ],
      backend: {
        'GET /api/v1/vip/list': { status: 200, body: { total: 0, user_vip: [] } },
        'GET /api/v1/user/list': { status: 200, body: { total: 1, user: [{ id: 2, username: 'amy' }] } },
        'POST /api/v1/vip/grant': { status: 400, body: { code: 3, message: refusal } },
      },
    });
    await fillGrantForAmy();
    await userEvent.click(screen.getByRole('button', { name: '开通' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '开通失败')?.description).toBe(refusal));
    expect(toasts.value.some((t) => t.title === '创建失败')).toBe(false);
    expect(screen.getByRole('form', { name: '开通会员' })).toBeTruthy();
  });
});
