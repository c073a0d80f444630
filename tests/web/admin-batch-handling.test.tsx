// Batch work on the admin lists whose rows were handled one at a time: reports and feedback
// (UpdateReport/UpdateFeedback take one id: one call per row, partial failures summed up) and
// orders (CloseOrder takes ids: one call), inside the real route tree.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Permission } from '../../shared/types/permission';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { renderApp, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const perm = (id: number, path: string): Permission => ({ id, method: 'GRPC', path, title: path });
const staff = { id: 9, username: 'kefu' };

const writes = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls
    .filter(
      ([url, init]) => (init?.method ?? 'GET') === method && new URL(String(url), 'http://localhost').pathname === path,
    )
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

const modal = () => within(document.querySelector('.semi-modal') as HTMLElement);

describe('batch 处理 of reports', () => {
  const reports = [
    { id: 1, document_title: '高等数学', reason: 1, status: false },
    { id: 2, document_title: '线性代数', reason: 2, status: true, remark: '已删除' },
    { id: 3, document_title: '概率论', reason: 1, status: false },
  ];
  const permissions = [perm(1, '/api.v1.ReportAPI/ListReport'), perm(2, '/api.v1.ReportAPI/UpdateReport')];

  it('handles the open reports selected, one call each with the note, and keeps a handled one as it was', async () => {
    const backend: Backend = {
      'GET /api/v1/report/list': { status: 200, body: { report: reports, total: 3 } },
      'PUT /api/v1/report': { status: 200, body: {} },
    };
    const { fetchMock } = renderApp('/admin/report', { user: staff, permissions, backend });
    await screen.findByText('高等数学');
    await userEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    await userEvent.click(screen.getByRole('button', { name: '批量处理（2）' }));
    expect(modal().getByText('将选中的 2 条未处理举报标记为已处理，下面的处理备注会写入每一条。')).toBeTruthy();
    await userEvent.type(modal().getByLabelText('处理备注'), '已核实并删除');
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '已处理')?.description).toBe('共 2 项'));
    expect(writes(fetchMock, 'PUT', '/api/v1/report')).toEqual([
      { id: 1, status: true, remark: '已核实并删除' },
      { id: 3, status: true, remark: '已核实并删除' },
    ]);
  });

  it('is not offered to a role that may not handle reports', async () => {
    renderApp('/admin/report', {
      user: staff,
      permissions: [permissions[0] as Permission],
      backend: { 'GET /api/v1/report/list': { status: 200, body: { report: reports, total: 3 } } },
    });
    await screen.findByText('高等数学');
    expect(screen.queryByRole('button', { name: /批量处理/ })).toBeNull();
  });
});

describe('batch 处理 of feedback', () => {
  const permissions = [perm(1, '/api.v1.FeedbackAPI/ListFeedback'), perm(2, '/api.v1.FeedbackAPI/UpdateFeedback')];

  it('says how many were handled and how many failed, and why, and retries only the failed one', async () => {
    let failing = true;
    const backend: Backend = {
      'GET /api/v1/feedback/list': {
        status: 200,
        body: {
          feedback: [
            { id: 1, content: '下载按钮没反应', status: 0 },
            { id: 2, content: '搜索结果太少', status: 0 },
            { id: 3, content: '希望支持暗色模式', status: 0 },
          ],
          total: 3,
        },
      },
      'PUT /api/v1/feedback': (_url, init) =>
        (JSON.parse(String(init.body)) as { id: number }).id === 2 && failing
          ? { status: 409, body: { code: 409, message: '反馈正在被他人编辑' } }
          : { status: 200, body: {} },
    };
    const { fetchMock } = renderApp('/admin/feedback', { user: staff, permissions, backend });
    await screen.findByText('下载按钮没反应');
    await userEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    await userEvent.click(screen.getByRole('button', { name: '批量处理（3）' }));
    await userEvent.type(modal().getByLabelText('回复'), '感谢反馈');
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '批量处理失败')?.description).toBe(
        '2 项成功，1 项失败：反馈正在被他人编辑。已保留失败的 1 项',
      ),
    );
    expect(writes(fetchMock, 'PUT', '/api/v1/feedback').map((body) => body.id)).toEqual([1, 2, 3]);
    expect(writes(fetchMock, 'PUT', '/api/v1/feedback')[0]).toEqual({ id: 1, status: 1, reply: '感谢反馈' });
    // The dialog stays, asking for the failed row alone, with the reply as typed; the list keeps it selected.
    expect(modal().getByText('将选中的 1 条未处理反馈标记为已处理，下面的回复会写入每一条。')).toBeTruthy();
    expect(screen.getByText('已选择 1 项')).toBeTruthy();
    failing = false;
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    // The whole batch came to 3: the 2 of the first try and the 1 retried.
    await waitFor(() => expect(toasts.value.find((t) => t.title === '已处理')?.description).toBe('共 3 项'));
    expect(writes(fetchMock, 'PUT', '/api/v1/feedback').map((body) => body.id)).toEqual([1, 2, 3, 2]);
    expect(writes(fetchMock, 'PUT', '/api/v1/feedback')[3]).toEqual({ id: 2, status: 1, reply: '感谢反馈' });
  });
  it('counts the whole batch in the failure of a retry, the rows earlier tries did too', async () => {
    const failing = new Set([2, 3, 4]);
    const contents = ['下载按钮没反应', '搜索结果太少', '希望支持暗色模式', '预览太慢', '分类不清楚'];
    const backend: Backend = {
      'GET /api/v1/feedback/list': {
        status: 200,
        body: { feedback: contents.map((content, i) => ({ id: i + 1, content, status: 0 })), total: 5 },
      },
      'PUT /api/v1/feedback': (_url, init) =>
        failing.has((JSON.parse(String(init.body)) as { id: number }).id)
          ? { status: 409, body: { code: 409, message: '反馈正在被他人编辑' } }
          : { status: 200, body: {} },
    };
    const { fetchMock } = renderApp('/admin/feedback', { user: staff, permissions, backend });
    await screen.findByText('下载按钮没反应');
    await userEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    await userEvent.click(screen.getByRole('button', { name: '批量处理（5）' }));
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '批量处理失败')?.description).toBe(
        '2 项成功，3 项失败：反馈正在被他人编辑。已保留失败的 3 项',
      ),
    );
    failing.delete(2);
    failing.delete(3);
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '批量处理失败')?.description).toBe(
        '4 项成功，1 项失败：反馈正在被他人编辑。已保留失败的 1 项',
      ),
    );
    expect(screen.getByText('已选择 1 项')).toBeTruthy();
    // Failing again alone, the last one still counts in a batch of 5.
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() => expect(writes(fetchMock, 'PUT', '/api/v1/feedback')).toHaveLength(9));
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '批量处理失败')?.description).toBe(
        '4 项成功，1 项失败：反馈正在被他人编辑。已保留失败的 1 项',
      ),
    );
    expect(writes(fetchMock, 'PUT', '/api/v1/feedback').map((body) => body.id)).toEqual([1, 2, 3, 4, 5, 2, 3, 4, 4]);
    failing.clear();
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '已处理')?.description).toBe('共 5 项'));
  });
});

describe('a batch whose session ends', () => {
  it('stops at the refusal and leaves it to the sign-in-again dialog, with no failure toast', async () => {
    const backend: Backend = {
      'GET /api/v1/feedback/list': {
        status: 200,
        body: {
          feedback: [
            { id: 1, content: '下载按钮没反应', status: 0 },
            { id: 2, content: '搜索结果太少', status: 0 },
          ],
          total: 2,
        },
      },
      'PUT /api/v1/feedback': {
        status: 401,
        body: { code: 401, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' },
      },
    };
    const { fetchMock } = renderApp('/admin/feedback', {
      user: staff,
      permissions: [perm(1, '/api.v1.FeedbackAPI/ListFeedback'), perm(2, '/api.v1.FeedbackAPI/UpdateFeedback')],
      backend,
    });
    await screen.findByText('下载按钮没反应');
    await userEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    await userEvent.click(screen.getByRole('button', { name: '批量处理（2）' }));
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    // Under the batch's own dialog, which hides the rest of the page from the accessibility tree.
    await waitFor(() =>
      expect([...document.querySelectorAll('.semi-modal-title')].map((title) => title.textContent)).toContain(
        '登录已失效',
      ),
    );
    expect(writes(fetchMock, 'PUT', '/api/v1/feedback')).toHaveLength(1);
    expect(toasts.value.some((t) => t.title === '批量处理失败')).toBe(false);
  });
});

describe('batch 关闭 of orders', () => {
  const orderList = {
    status: 200,
    body: {
      order: [
        { id: 1, order_no: 'VIP001', status: 0, username: 'amy' },
        { id: 2, order_no: 'VIP002', status: 1, username: 'bob' },
        { id: 3, order_no: 'VIP003', status: 0, username: 'cat' },
      ],
      total: 3,
    },
  };
  const orderPermissions = [perm(1, '/api.v1.OrderAPI/ListOrder'), perm(2, '/api.v1.OrderAPI/CloseOrder')];

  it('closes the pending orders selected in one call, with the reason it asks for', async () => {
    const backend: Backend = {
      'GET /api/v1/order/list': orderList,
      'PUT /api/v1/order/close': { status: 200, body: { closed: [1, 3] } },
    };
    const { fetchMock } = renderApp('/admin/order', {
      user: staff,
      permissions: orderPermissions,
      backend,
    });
    await screen.findByText('VIP001');
    await userEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    await userEvent.click(screen.getByRole('button', { name: '批量关闭（2）' }));
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    expect(await modal().findByText('请输入关闭原因')).toBeTruthy();
    expect(writes(fetchMock, 'PUT', '/api/v1/order/close')).toEqual([]);
    await userEvent.type(modal().getByLabelText('关闭原因'), '用户要求取消');
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.find((t) => t.title === '订单已关闭')?.description).toBe('共 2 项'));
    expect(writes(fetchMock, 'PUT', '/api/v1/order/close')).toEqual([{ id: [1, 3], reason: '用户要求取消' }]);
  });

  const closeWith = async (answer: { closed: number[]; skipped: object[] }) => {
    renderApp('/admin/order', {
      user: staff,
      permissions: orderPermissions,
      backend: {
        'GET /api/v1/order/list': orderList,
        'PUT /api/v1/order/close': { status: 200, body: answer },
      },
    });
    await screen.findByText('VIP001');
    await userEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    await userEvent.click(screen.getByRole('button', { name: '批量关闭（2）' }));
    await userEvent.type(modal().getByLabelText('关闭原因'), '用户要求取消');
    await userEvent.click(modal().getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value).toHaveLength(1));
    return toasts.value[0];
  };

  it('warns of the orders the server left because they were paid or closed since the list was read', async () => {
    const told = await closeWith({ closed: [1], skipped: [{ id: 3, order_no: 'VIP003', status: 1, username: 'cat' }] });
    expect(told).toMatchObject({
      color: 'warning',
      title: '订单已关闭',
      description: '1 项成功，1 项跳过：订单 VIP003 已支付',
    });
  });

  it('says no order was closed when the server left every one', async () => {
    const told = await closeWith({
      closed: [],
      skipped: [
        { id: 1, order_no: 'VIP001', status: 1, username: 'amy' },
        { id: 3, order_no: 'VIP003', status: 2, username: 'cat' },
      ],
    });
    expect(told).toMatchObject({
      color: 'warning',
      title: '选中的订单均已跳过',
      description: '2 项跳过：订单 VIP001 已支付；订单 VIP003 已关闭',
    });
  });
});
