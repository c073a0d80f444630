// What the admin sees when 保存 finds a wrong value, the help of the config forms, the
// payment switch refused while no chosen way of paying is usable, and the question before
// changes not saved are left behind.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Config } from '../../shared/types/config';
import { CONFIG_KEYS } from '../../backend/modules/config/keys';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { configBackend, configPermissions as permissions, configPuts as puts } from './config-forms';
import { admin, renderApp, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const SECURITY: Config[] = [
  {
    id: 1,
    name: 'max_document_size',
    label: '最大文档大小(MB)',
    value: '50',
    input_type: 'number',
    category: 'security',
  },
  { id: 2, name: 'comment_interval', label: '评论时间间隔', value: '10', input_type: 'number', category: 'security' },
  {
    id: 3,
    name: 'search_record_retention_days',
    label: '搜索记录保留天数',
    value: '7',
    input_type: 'number',
    category: 'security',
  },
  { id: 4, name: 'close_statement', label: '闭站说明', value: '维护中', input_type: 'textarea', category: 'security' },
];

function backend(rows: Record<string, Config[]>): Backend {
  return {
    ...configBackend(rows),
    // 安全配置's 内容审核 panel reads the default role.
    'GET /api/v1/group/list': {
      status: 200,
      body: { total: 1, group: [{ id: 2, title: '普通用户', is_default: true, enable_document_review: true }] },
    },
  };
}

describe("安全配置's 内容审核", () => {
  const settingsAdmin = (extra: typeof permissions) =>
    renderApp('/admin/config/security', {
      // Not the super admin (id 1), who holds every permission.
      user: { id: 7, username: 'editor' },
      permissions: [
        ...permissions,
        { id: 3, method: 'GRPC', path: '/api.v1.ConfigAPI/UpdateConfig', title: '更新系统配置' },
        ...extra,
      ],
      backend: backend({ security: SECURITY }),
    });

  it('is read-only, and says why, for an admin of the settings who may not update roles', async () => {
    const { fetchMock } = settingsAdmin([]);
    const panel = within((await screen.findByRole('heading', { name: '内容审核' })).closest('section') as HTMLElement);
    const documents = await panel.findByRole('switch', { name: '上传的文档需要审核' });
    expect((documents as HTMLButtonElement).disabled).toBe(true);
    expect(panel.getByRole('note').textContent).toBe('您只能查看这些设置：修改需要“更新用户组”权限，请联系管理员。');
    await userEvent.click(documents);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('offers the switches to an admin who may update roles', async () => {
    settingsAdmin([{ id: 4, method: 'GRPC', path: '/api.v1.GroupAPI/UpdateGroup', title: '更新用户组' }]);
    const panel = within((await screen.findByRole('heading', { name: '内容审核' })).closest('section') as HTMLElement);
    const documents = await panel.findByRole('switch', { name: '上传的文档需要审核' });
    expect((documents as HTMLButtonElement).disabled).toBe(false);
    expect(panel.queryByRole('note')).toBeNull();
  });
});

describe('config form feedback', () => {
  it('保存 with a wrong value above the viewport scrolls to the first wrong field and focuses it', async () => {
    const scrolled: Element[] = [];
    // A spy, restored afterwards: the web project's files share one window (isolate: false), and
    // the reader's tests need happy-dom's own scrollIntoView.
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    try {
      const { fetchMock } = renderApp('/admin/config/security', {
        user: admin,
        permissions,
        backend: backend({ security: SECURITY }),
      });
      const size = (await screen.findByLabelText('最大文档大小(MB)')) as HTMLInputElement;
      const days = screen.getByLabelText('搜索记录保留天数') as HTMLInputElement;
      await userEvent.clear(size);
      await userEvent.type(size, '0');
      await userEvent.clear(days);
      const save = screen.getByRole('button', { name: '保存' });
      save.focus();
      await userEvent.click(save);
      await waitFor(() => expect(document.activeElement).toBe(size));
      expect(scrollIntoView).toHaveBeenCalledTimes(1);
      expect(scrolled[0]?.contains(size)).toBe(true);
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        '最大文档大小(MB)必须在 1 到 102400 之间',
        '请输入搜索记录保留天数',
      ]);
      expect(puts(fetchMock)).toHaveLength(0);
    } finally {
      scrollIntoView.mockRestore();
    }
  });

  it('a valid form is saved without scrolling', async () => {
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
    try {
      const { fetchMock } = renderApp('/admin/config/security', {
        user: admin,
        permissions,
        backend: backend({ security: SECURITY }),
      });
      await screen.findByLabelText('最大文档大小(MB)');
      await userEvent.click(screen.getByRole('button', { name: '保存' }));
      await waitFor(() => expect(toasts.value.some((t) => t.title === '保存成功')).toBe(true));
      expect(puts(fetchMock)).toHaveLength(1);
      expect(scrollIntoView).not.toHaveBeenCalled();
    } finally {
      scrollIntoView.mockRestore();
    }
  });

  it('/admin/config/email: a test mail that fails says the values were saved, and the form shows them as stored', async () => {
    const EMAIL: Config[] = [
      // On: the server sends the test mail only then.
      { id: 81, name: 'enable', label: '是否启用邮件服务', value: 'true', input_type: 'switch', category: 'email' },
      { id: 82, name: 'host', label: 'SMTP 服务器地址', value: '', input_type: 'text', category: 'email' },
      { id: 83, name: 'test_email', label: '测试邮箱', value: '', input_type: 'text', category: 'email' },
    ];
    let stored = EMAIL;
    const { fetchMock } = renderApp('/admin/config/email', {
      user: admin,
      permissions,
      backend: {
        ...configBackend({}),
        'GET /api/v1/config/list': () => ({ status: 200, body: { config: stored } }),
        // As the server does: the values are stored, then the test mail fails.
        'PUT /api/v1/config': (_url, init) => {
          const sent = (JSON.parse(String(init.body)) as { config: Config[] }).config;
          stored = EMAIL.map((row) => ({ ...row, value: sent.find((s) => s.id === row.id)?.value ?? row.value }));
          const message = '邮件发送失败：connect ECONNREFUSED 127.0.0.1:465';
          return { status: 503, body: { code: 14, message, error: message } };
        },
      },
    });
    const host = (await screen.findByLabelText('SMTP 服务器地址')) as HTMLInputElement;
    await userEvent.type(host, 'smtp.example.com');
    await userEvent.type(screen.getByLabelText('测试邮箱'), 'owner@example.com');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(toasts.value.map((t) => [t.title, t.description, t.color])).toEqual([
        ['配置已保存，但测试邮件发送失败', '邮件发送失败：connect ECONNREFUSED 127.0.0.1:465', 'warning'],
      ]),
    );
    // The stored rows are read again: 还原 goes back to what is stored, not to the values before.
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/v1/config/list')).length,
      ).toBeGreaterThan(1),
    );
    await userEvent.click(screen.getByRole('button', { name: '还原' }));
    expect(host.value).toBe('smtp.example.com');
  });

  it('/admin/config/email: 保存成功 says whether the test mail went out, from the switch and 测试邮箱 saved', async () => {
    const rows = (enable: string): Config[] => [
      { id: 81, name: 'enable', label: '是否启用邮件服务', value: enable, input_type: 'switch', category: 'email' },
      {
        id: 82,
        name: 'host',
        label: 'SMTP 服务器地址',
        value: 'smtp.example.com',
        input_type: 'text',
        category: 'email',
      },
      { id: 83, name: 'test_email', label: '测试邮箱', value: '', input_type: 'text', category: 'email' },
    ];
    for (const [enable, said] of [
      ['true', '配置已更新；测试邮件已发送至 owner@example.com，请查收'],
      ['false', '配置已更新；邮件服务未启用，未发送测试邮件'],
    ]) {
      const view = renderApp('/admin/config/email', {
        user: admin,
        permissions,
        backend: configBackend({ email: rows(enable!) }),
      });
      await userEvent.type(await screen.findByLabelText('测试邮箱'), 'owner@example.com');
      await userEvent.click(screen.getByRole('button', { name: '保存' }));
      await waitFor(() => expect(toasts.value.map((t) => [t.title, t.description])).toEqual([['保存成功', said]]));
      act(() => clearToasts());
      view.unmount();
    }
  });

  const PAY: Config[] = [
    { id: 61, name: 'enable', label: '是否启用支付', value: 'false', input_type: 'switch', category: 'pay' },
    {
      id: 62,
      name: 'provider',
      label: '支付方式',
      value: 'alipay,wechat',
      input_type: 'select-multi',
      category: 'pay',
      options: 'alipay:支付宝\nwechat:微信支付\nmanual:线下转账（管理员确认）',
    },
    { id: 63, name: 'alipay_app_id', label: '支付宝 AppID', value: '', input_type: 'text', category: 'pay' },
    {
      id: 64,
      name: 'alipay_private_key',
      label: '支付宝应用私钥',
      value: '******',
      input_type: 'password',
      category: 'pay',
    },
    { id: 65, name: 'alipay_public_key', label: '支付宝公钥', value: '', input_type: 'textarea', category: 'pay' },
    { id: 66, name: 'wechat_app_id', label: '微信支付 AppID', value: '', input_type: 'text', category: 'pay' },
    { id: 67, name: 'wechat_mch_id', label: '微信支付商户号', value: '', input_type: 'text', category: 'pay' },
    { id: 68, name: 'wechat_serial_no', label: '商户 API 证书序列号', value: '', input_type: 'text', category: 'pay' },
    { id: 69, name: 'wechat_private_key', label: '商户 API 私钥', value: '', input_type: 'password', category: 'pay' },
    { id: 70, name: 'wechat_api_v3_key', label: 'APIv3 密钥', value: '', input_type: 'password', category: 'pay' },
    {
      id: 71,
      name: 'wechat_public_key',
      label: '微信支付公钥或平台证书',
      value: '',
      input_type: 'textarea',
      category: 'pay',
    },
    { id: 72, name: 'manual_instructions', label: '线下转账说明', value: '', input_type: 'textarea', category: 'pay' },
  ];

  it('/admin/config/pay: payment switched on with no usable way is refused under 支付方式, before sending', async () => {
    const { fetchMock } = renderApp('/admin/config/pay', { user: admin, permissions, backend: backend({ pay: PAY }) });
    await screen.findByLabelText('支付宝 AppID');
    await userEvent.click(screen.getByRole('switch'));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      '支付方式中没有可用的方式（支付宝需填写支付宝 AppID、支付宝公钥；微信支付需填写微信支付 AppID、微信支付商户号、商户 API 证书序列号、商户 API 私钥、APIv3 密钥、微信支付公钥或平台证书），会员将无法下单。请填写后再保存，或关闭是否启用支付',
    );
    expect(alert.closest('[data-field]')?.getAttribute('data-field')).toBe('provider');
    expect(puts(fetchMock)).toHaveLength(0);

    // The set private key (shown as ******) counts: the other two Alipay keys make it usable.
    await userEvent.type(screen.getByLabelText('支付宝 AppID'), '2021000000000000');
    await userEvent.type(screen.getByLabelText('支付宝公钥'), 'MIIBIjANBgkq');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('/admin/config/vip: the help under the plan table is about the table, not the old one-plan-per-line text', async () => {
    const plans: Config = {
      id: 81,
      name: 'plans',
      label: '会员套餐',
      value: 'month|月度会员|30|30',
      input_type: 'textarea',
      category: 'vip',
      placeholder: '每行一个套餐：代码|名称|天数|价格（元）|说明（可选）|推荐填 1（可选）',
    };
    renderApp('/admin/config/vip', { user: admin, permissions, backend: backend({ vip: [plans] }) });
    const table = await screen.findByRole('group', { name: '会员套餐' });
    const help =
      document.getElementById(table.getAttribute('aria-describedby') ?? '') ??
      table.closest('[data-field]')?.querySelector('.app-field__hint');
    expect(help?.textContent).toContain('打开“推荐”的套餐在会员页突出显示');
    expect(document.body.textContent).not.toContain('代码|名称|天数');
  });
});

describe('/admin/config/download as the backend seeds it', () => {
  it('says under the per-IP limit that an IPv6 client counts by its prefix (a /64 by default)', async () => {
    const rows: Config[] = CONFIG_KEYS.filter((key) => key.category === 'download').map((key, i) => ({
      ...key,
      id: i + 1,
    }));
    renderApp('/admin/config/download', { user: admin, permissions, backend: backend({ download: rows }) });
    const input = await screen.findByLabelText('允许每个IP每天下载次数');
    const help = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    expect(help?.textContent).toBe(
      'IPv4 按单个地址计数；IPv6 按所在网段计数（默认 /64，由运维设置 CLIENT_IPV6_PREFIX），同一网段的地址共用次数；0 表示禁止所有下载',
    );
  });
});

describe('the VIP plans table', () => {
  it('保存 with a wrong plan marks only its wrong cells and focuses the first of them', async () => {
    const plans: Config = {
      id: 71,
      name: 'plans',
      label: '会员套餐',
      value: 'month|月度会员|30|30\nyear|年度会员|365|298',
      input_type: 'textarea',
      category: 'vip',
    };
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => undefined);
    try {
      const { fetchMock } = renderApp('/admin/config/vip', {
        user: admin,
        permissions,
        backend: backend({ vip: [plans] }),
      });
      await screen.findByRole('group', { name: '会员套餐' });
      await userEvent.click(screen.getByRole('button', { name: '添加套餐' }));
      // The new third plan: a code and days, no name nor price. The second's code made the first's.
      await userEvent.type(screen.getByLabelText('第 3 个套餐的代码'), 'week');
      await userEvent.clear(screen.getByLabelText('第 2 个套餐的代码'));
      await userEvent.type(screen.getByLabelText('第 2 个套餐的代码'), 'month');
      await userEvent.click(screen.getByRole('button', { name: '保存' }));

      expect(await screen.findByText('第 2 个套餐：套餐代码“month”重复')).toBeTruthy();
      const wrong = [...document.querySelectorAll('[data-plan-row] input[aria-invalid="true"]')].map((input) =>
        input.getAttribute('aria-label'),
      );
      expect(wrong).toEqual(['第 2 个套餐的代码', '第 3 个套餐的名称', '第 3 个套餐的价格（元）']);
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('第 2 个套餐的代码')));
      expect(puts(fetchMock)).toHaveLength(0);
    } finally {
      scrollIntoView.mockRestore();
    }
  });
});

describe('leaving a config form', () => {
  it('asks before a move to another screen drops changes not saved, and asks nothing once they are saved', async () => {
    const { router, fetchMock } = renderApp('/admin/config/security', {
      user: admin,
      permissions,
      backend: backend({ security: SECURITY, display: [] }),
    });
    const statement = (await screen.findByLabelText('闭站说明')) as HTMLTextAreaElement;
    // Untouched: leaving asks nothing.
    await act(() => router.navigate('/admin/config/display'));
    await waitFor(() => expect(screen.getByRole('heading', { name: '展示配置', level: 1 })).toBeTruthy());
    await act(() => router.navigate('/admin/config/security'));

    const again = (await screen.findByLabelText('闭站说明')) as HTMLTextAreaElement;
    expect(again).not.toBe(statement);
    await userEvent.type(again, '，明早恢复');
    await act(() => router.navigate('/admin/config/display'));
    const ask = await screen.findByRole('alertdialog', { name: '离开此页' });
    expect(ask.textContent).toContain('配置还没有保存');
    expect(router.state.location.pathname).toBe('/admin/config/security');
    await userEvent.click(within(ask).getByRole('button', { name: '留下继续编辑' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(again.value).toBe('维护中，明早恢复');

    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '保存成功')).toBe(true));
    expect(puts(fetchMock)).toHaveLength(1);
    await act(() => router.navigate('/admin/config/display'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/config/display'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps the changes not saved when the rows are read again (focus, reconnect), updating the fields not touched', async () => {
    const rows = { security: SECURITY.map((row) => ({ ...row })), display: [] };
    const { router, queryClient } = renderApp('/admin/config/security', {
      user: admin,
      permissions,
      backend: backend(rows),
    });
    const statement = (await screen.findByLabelText('闭站说明')) as HTMLTextAreaElement;
    await userEvent.type(statement, '，明早恢复');
    // Another admin changed 评论时间间隔 meanwhile; the tab regains focus and the rows are read again.
    rows.security = rows.security.map((row) => (row.name === 'comment_interval' ? { ...row, value: '30' } : row));
    await act(() => queryClient.invalidateQueries({ queryKey: ['config'] }));
    await waitFor(() => expect((screen.getByLabelText('评论时间间隔') as HTMLInputElement).value).toBe('30'));
    expect((screen.getByLabelText('闭站说明') as HTMLTextAreaElement).value).toBe('维护中，明早恢复');
    // Still unsaved: leaving asks.
    await act(() => router.navigate('/admin/config/display'));
    expect((await screen.findByRole('alertdialog', { name: '离开此页' })).textContent).toContain('配置还没有保存');
  });

  it('keeps the form and the changes not saved when reading the rows again fails (a reconnect too early)', async () => {
    let down = false;
    const { queryClient } = renderApp('/admin/config/security', {
      user: admin,
      permissions,
      backend: {
        ...backend({ security: SECURITY }),
        'GET /api/v1/config/list': () =>
          down ? { status: 502, body: { code: 14, message: '网络异常' } } : { status: 200, body: { config: SECURITY } },
      },
    });
    const statement = (await screen.findByLabelText('闭站说明')) as HTMLTextAreaElement;
    await userEvent.type(statement, '，明早恢复');
    down = true;
    await act(() => queryClient.invalidateQueries({ queryKey: ['config'] }));
    await waitFor(() => expect(queryClient.getQueryState(['config', 'security'])?.status).toBe('error'));
    expect(screen.getByLabelText('闭站说明')).toBe(statement);
    expect(statement.value).toBe('维护中，明早恢复');
    expect(screen.queryByRole('button', { name: '重试' })).toBeNull();
  });
});
