// The VIP, checkout and order screens inside the real route tree, against a scripted backend:
// what they show while loading and after, the checks before sending, and the calls they make.
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Order } from '../../shared/types/order';
import type { Permission } from '../../shared/types/permission';
import type { StartData } from '../../shared/types/start-data';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { fakePolling, nextPoll } from './polling';
import { admin, holdCalls, member, renderApp, settings, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const onSale: StartData['settings'] = {
  ...settings,
  vip: {
    enable: true,
    title: 'VIP 会员',
    description: '开通 VIP 会员，畅享全站文档免积分下载',
    plans: [
      { code: 'month', title: '月度会员', days: 30, price: 30 },
      { code: 'year', title: '年度会员', days: 365, price: 298, description: '最划算', recommended: true },
    ],
    benefits: '<ul><li>免积分下载全站文档</li><li>专属会员标识</li></ul>',
  },
  pay: { enable: true, provider: 'manual', providers: ['manual', 'wechat'] },
};

const pending: Order = {
  id: 7,
  order_no: '2024050110203012345678',
  user_id: 2,
  username: 'amy',
  plan_code: 'month',
  plan_title: '月度会员',
  days: 30,
  amount: 3000,
  expires_at: '2099-01-01T00:00:00Z',
  created_at: '2024-05-01T02:20:30Z',
};

const calls = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (init?.method ?? 'GET') === method && new URL(String(url), 'http://localhost').pathname === path,
  );
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body)) as Record<string, unknown>;

describe('/vip', () => {
  it("shows the plans (recommended marked), the benefits and the member's VIP end date", async () => {
    renderApp('/vip', {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/vip': {
          status: 200,
          body: { user_id: 2, active: true, plan_title: '年度会员', end_at: '2099-03-04T05:06:07Z' },
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'VIP 会员', level: 1 })).toBeTruthy();
    const plans = within(await screen.findByRole('list', { name: '会员套餐' }));
    expect(plans.getAllByRole('listitem')).toHaveLength(2);
    const year = within(plans.getByRole('heading', { name: '年度会员' }).closest('li') as HTMLElement);
    expect(year.getByText('推荐')).toBeTruthy();
    expect(year.getByText('298.00')).toBeTruthy();
    expect(year.getByText('365 天')).toBeTruthy();
    expect(screen.getByText('免积分下载全站文档').closest('.app-vip-benefits li')).toBeTruthy(); // the benefits' HTML list, shown as a list
    expect(await screen.findByText('2099-03-04 13:06')).toBeTruthy();
    expect(screen.getByText(/有效期至/)).toBeTruthy();
  });

  it("marks a member without VIP with the hero's light 普通会员 tag", async () => {
    renderApp('/vip', { user: member, settings: onSale, backend: { 'GET /api/v1/vip': { status: 200, body: {} } } });
    expect(await screen.findByText('您还不是 VIP 会员')).toBeTruthy();
    const tag = screen.getByText('普通会员').closest('.semi-tag') as HTMLElement;
    expect(tag.closest('.app-vip__hero')).toBeTruthy();
    // vip.css gives this class an opaque light background with dark text on the hero (contrast checked in
    // tests/e2e/vip.test.ts).
    expect(tag.classList.contains('app-vip-state__tag--plain')).toBe(true);
  });

  it('says under the member’s VIP state that a transfer waits for 确认收款, before another plan is bought', async () => {
    renderApp('/vip', {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/vip': { status: 200, body: {} },
        'GET /api/v1/order/mine': (url) =>
          url.searchParams.getAll('status').join() === '0'
            ? { status: 200, body: { total: 1, order: [{ ...pending, provider: 'manual' }] } }
            : { status: 400, body: { code: 3, message: '参数错误' } },
      },
    });
    const hero = within((await screen.findByRole('heading', { name: 'VIP 会员', level: 1 })).closest('section')!);
    expect(await hero.findByText(/正在等待管理员确认收款，确认后 VIP 会员即刻生效。/)).toBeTruthy();
    expect(hero.getByRole('link', { name: '查看订单' }).getAttribute('href')).toBe(
      `/vip/checkout?order_no=${pending.order_no}`,
    );
  });

  it('goes to the checkout of the chosen plan', async () => {
    const { router } = renderApp('/vip', {
      user: member,
      settings: onSale,
      backend: { 'GET /api/v1/vip': { status: 200, body: {} } },
    });
    await userEvent.click(await screen.findByRole('button', { name: '立即开通年度会员' }));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/vip/checkout?plan=year'),
    );
  });

  it('says when VIP is not on sale, and asks visitors to log in', async () => {
    renderApp('/vip', { settings: { ...onSale, pay: {} } });
    expect(await screen.findByText('VIP 会员暂未开放购买，敬请期待。')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: '暂未开放购买' })).toHaveLength(2);
    // A notice that stays: no close button, and none named in English ("Close", Semi's).
    expect(document.querySelector('[aria-label="Close"]')).toBeNull();
    const hero = within(screen.getByRole('heading', { name: 'VIP 会员', level: 1 }).closest('section') as HTMLElement);
    expect(hero.getByRole('link', { name: '登录' }).getAttribute('href')).toBe('/auth/login?redirect=%2Fvip');
    // Logging in opens no purchase here: it shows one's own VIP state.
    expect(hero.getByText('后查看您的会员状态')).toBeTruthy();
    expect(hero.queryByText(/即可开通/)).toBeNull();
  });

  it('asks visitors to log in to buy where VIP is on sale', async () => {
    renderApp('/vip', { settings: onSale });
    const hero = within(
      (await screen.findByRole('heading', { name: 'VIP 会员', level: 1 })).closest('section') as HTMLElement,
    );
    expect(hero.getByText('后即可开通 VIP 会员')).toBeTruthy();
  });
});

describe('/vip/checkout', () => {
  it('orders the plan once however often 立即支付 is clicked, then shows the transfer instructions', async () => {
    const backend: Backend = {
      'POST /api/v1/order': { status: 200, body: pending },
      'POST /api/v1/order/pay': {
        status: 200,
        body: { order: { ...pending, provider: 'manual' }, provider: 'manual', instructions: '请转账至 招商银行 6225' },
      },
      'GET /api/v1/order': { status: 200, body: { ...pending, provider: 'manual' } },
    };
    const { fetchMock, router } = renderApp('/vip/checkout?plan=month', { user: member, settings: onSale, backend });
    const release = holdCalls(fetchMock, (url, init) => init.method === 'POST' && url.pathname === '/api/v1/order');
    expect(await screen.findByRole('heading', { name: '确认订单' })).toBeTruthy();
    expect(screen.getByText('¥30.00')).toBeTruthy();
    expect((screen.getByRole('radio', { name: '线下转账' }) as HTMLInputElement).checked).toBe(true);
    const pay = screen.getByRole('button', { name: '立即支付' });
    // A double click, its second click before the button shows it is busy, then one more.
    await userEvent.setup({ delay: null }).dblClick(pay);
    await userEvent.click(pay);
    release();
    expect(await screen.findByText('请转账至 招商银行 6225')).toBeTruthy();
    expect(calls(fetchMock, 'POST', '/api/v1/order')).toHaveLength(1);
    expect(calls(fetchMock, 'POST', '/api/v1/order/pay')).toHaveLength(1);
    expect(bodyOf(calls(fetchMock, 'POST', '/api/v1/order')[0])).toEqual({ plan_code: 'month', price: 30 });
    expect(bodyOf(calls(fetchMock, 'POST', '/api/v1/order/pay')[0])).toEqual({
      order_no: pending.order_no,
      provider: 'manual',
      device: 'pc',
    });
    expect(router.state.location.search).toBe(`?order_no=${pending.order_no}`);
    expect(screen.getByText('等待管理员确认收款')).toBeTruthy();
  });

  it('does not speak of extending to a member who has no VIP yet', async () => {
    const { fetchMock } = renderApp('/vip/checkout?plan=month', {
      user: member,
      settings: onSale,
      backend: { 'GET /api/v1/vip': { status: 200, body: {} } },
    });
    expect(await screen.findByRole('heading', { name: '确认订单' })).toBeTruthy();
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/v1/vip')).toHaveLength(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByText('30 天')).toBeTruthy();
    expect(screen.queryByText(/顺延/)).toBeNull();
  });

  it('says the days follow the current period to a member whose VIP is still running', async () => {
    renderApp('/vip/checkout?plan=month', {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/vip': {
          status: 200,
          body: { user_id: 2, active: true, plan_title: '月度会员', end_at: '2099-03-04T05:06:07Z' },
        },
      },
    });
    expect(await screen.findByText('30 天（在当前有效期后顺延）')).toBeTruthy();
  });

  /** A month's checkout whose payment by WeChat Pay answers a code, paid by WeChat Pay. */
  const payByWeChat = async () => {
    const rendered = renderApp(`/vip/checkout?plan=month`, {
      user: member,
      settings: onSale,
      backend: {
        'POST /api/v1/order': { status: 200, body: pending },
        'POST /api/v1/order/pay': {
          status: 200,
          body: {
            order: { ...pending, provider: 'wechat' },
            provider: 'wechat',
            code_url: 'weixin://wxpay/bizpayurl?pr=abc',
          },
        },
        'GET /api/v1/order': { status: 200, body: { ...pending, provider: 'wechat' } },
      },
    });
    await userEvent.click(await screen.findByRole('radio', { name: '微信支付' }));
    await userEvent.click(screen.getByRole('button', { name: '立即支付' }));
    return rendered;
  };

  it('draws the WeChat Pay code as a QR image', async () => {
    await payByWeChat();
    const image = (await screen.findByRole('img', { name: '微信支付二维码' })) as HTMLImageElement;
    expect(image.src).toMatch(/^data:image\/png;base64,/);
    expect(screen.getByText('支付完成后页面会自动跳转')).toBeTruthy();
  });

  /** Opens the checkout of the pending order, as it now stands (the member's VIP as `vip` says, where given). */
  const openOrder = (changes: Partial<Order>, vip?: Record<string, unknown>) =>
    renderApp(`/vip/checkout?order_no=${pending.order_no}`, {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/order': { status: 200, body: { ...pending, ...changes } },
        ...(vip ? { 'GET /api/v1/vip': { status: 200, body: vip } } : {}),
      },
    });

  it('shows a transfer submitted before with its instructions and the waiting state when the order is opened again', async () => {
    openOrder({ provider: 'manual', instructions: '请转账至 招商银行 6225' });
    expect(await screen.findByText('请转账至 招商银行 6225')).toBeTruthy();
    expect(screen.getByText('等待管理员确认收款')).toBeTruthy();
    expect(screen.getByText(pending.order_no!, { selector: 'strong' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '立即支付' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '更换支付方式' }));
    expect(screen.getByRole('button', { name: '立即支付' })).toBeTruthy();
  });

  /** The transfer step's sentence after the order number, as the member reads it (without its 复制). */
  const transferEffect = async () => {
    const sentence = (await screen.findByText(pending.order_no!, { selector: 'strong' })).closest('p')?.cloneNode(true);
    (sentence as HTMLElement | undefined)?.querySelector('button')?.remove();
    return sentence?.textContent?.replace(' ，', '，');
  };

  it('copies the order number to put in the transfer’s note, and says 订单号已复制', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(writeText);
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    openOrder({ provider: 'manual', instructions: '请转账至 招商银行 6225' });
    const sentence = (await screen.findByText(pending.order_no!, { selector: 'strong' })).closest('p') as HTMLElement;
    await userEvent.click(within(sentence).getByRole('button', { name: '复制订单号' }));
    expect(writeText).toHaveBeenCalledWith(pending.order_no);
    await waitFor(() =>
      expect(toasts.value.map((t) => [t.title, t.description])).toEqual([['订单号已复制', pending.order_no]]),
    );
  });

  it('says in Chinese when the browser refuses the clipboard, and how to copy the order number by hand', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    openOrder({ provider: 'manual', instructions: '请转账至 招商银行 6225' });
    await userEvent.click(await screen.findByRole('button', { name: '复制订单号' }));
    await waitFor(() =>
      expect(toasts.value.map((t) => [t.title, t.description])).toEqual([
        ['浏览器未允许复制', '请长按或选中订单号手动复制'],
      ]),
    );
  });

  it('says a transfer confirmed makes a member without VIP one at once', async () => {
    openOrder({ provider: 'manual', instructions: '请转账至 招商银行 6225' }, {});
    expect(await transferEffect()).toBe(`转账备注请填写订单号 ${pending.order_no}，管理员确认收款后会员即刻生效。`);
  });

  it('says to a member whose VIP runs that a transfer confirmed adds the days after its end, until when, and from when if it ends first', async () => {
    openOrder(
      { provider: 'manual', instructions: '请转账至 招商银行 6225' },
      { user_id: 2, active: true, plan_title: '月度会员', end_at: '2099-03-04T05:06:07Z' },
    );
    // 30 days after 2099-03-04 13:06 (Beijing time), as the backend's extendVip adds them, while
    // the VIP still runs at the confirmation; from the confirmation when it has ended by then.
    await waitFor(async () =>
      expect(await transferEffect()).toBe(
        `转账备注请填写订单号 ${pending.order_no}，管理员确认收款后，会员有效期顺延 30 天，至 2099-04-03 13:06；` +
          '如当前会员在确认收款前到期，则自确认收款时起算 30 天。',
      ),
    );
    expect(screen.queryByText(/即刻生效/)).toBeNull();
  });

  it('goes back from 更换支付方式 to the transfer instructions without paying again', async () => {
    const { fetchMock } = openOrder({ provider: 'manual', instructions: '请转账至 招商银行 6225' });
    expect(await screen.findByText('请转账至 招商银行 6225')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '更换支付方式' }));
    expect(screen.queryByText('请转账至 招商银行 6225')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '返回线下转账' }));
    expect(screen.getByText('请转账至 招商银行 6225')).toBeTruthy();
    expect(screen.getByText('等待管理员确认收款')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '立即支付' })).toBeNull();
    expect(calls(fetchMock, 'POST', '/api/v1/order/pay')).toHaveLength(0);
  });

  it('goes back from 更换支付方式 to the WeChat Pay QR code shown before', async () => {
    const { fetchMock } = await payByWeChat();
    expect(await screen.findByRole('img', { name: '微信支付二维码' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '更换支付方式' }));
    expect(screen.getByRole('button', { name: '立即支付' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '返回微信支付' }));
    expect(await screen.findByRole('img', { name: '微信支付二维码' })).toBeTruthy();
    expect(calls(fetchMock, 'POST', '/api/v1/order/pay')).toHaveLength(1);
  });

  it('offers no way back to the instructions of an order past its payment deadline', async () => {
    openOrder({ provider: 'manual', instructions: '请转账至 招商银行 6225', expires_at: '2024-05-01T02:50:30Z' });
    await userEvent.click(await screen.findByRole('button', { name: '更换支付方式' }));
    expect(screen.getByRole('button', { name: '立即支付' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '返回线下转账' })).toBeNull();
  });

  it('offers no 更换支付方式 for a transfer when the transfer is the only way of paying', async () => {
    renderApp(`/vip/checkout?order_no=${pending.order_no}`, {
      user: member,
      settings: { ...onSale, pay: { ...onSale.pay, providers: ['manual'] } },
      backend: {
        'GET /api/v1/order': {
          status: 200,
          body: { ...pending, provider: 'manual', instructions: '请转账至 招商银行 6225' },
        },
      },
    });
    expect(await screen.findByText('请转账至 招商银行 6225')).toBeTruthy();
    expect(screen.getByRole('button', { name: '取消订单' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '更换支付方式' })).toBeNull();
  });

  it('keeps the transfer instructions on screen when a poll fails, polls on, and moves on once paid', async () => {
    fakePolling();
    const answers = [
      { status: 200, body: { ...pending, provider: 'manual', instructions: '请转账至 招商银行 6225' } },
      { status: 502, body: { code: 14, message: '网站暂时无法访问，请稍后再试' } },
      { status: 200, body: { ...pending, provider: 'manual', status: 1, vip_end_at: '2099-01-31T00:00:00Z' } },
    ];
    renderApp(`/vip/checkout?order_no=${pending.order_no}`, {
      user: member,
      settings: onSale,
      // The last answer stays: a poll more (the machine slow) gets the paid order again, not nothing.
      backend: { 'GET /api/v1/order': () => (answers.length > 1 ? answers.shift()! : answers[0]!) },
    });
    expect(await screen.findByText('请转账至 招商银行 6225')).toBeTruthy();
    await nextPoll(3000);
    expect(
      await screen.findByText('订单状态暂时无法刷新（网站暂时无法访问，请稍后再试），稍后会自动重试'),
    ).toBeTruthy();
    expect(screen.getByText('请转账至 招商银行 6225')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '重试' })).toBeNull();
    await nextPoll(3000);
    expect(await screen.findByRole('heading', { name: '支付成功' })).toBeTruthy();
    expect(screen.queryByText(/订单状态暂时无法刷新/)).toBeNull();
  });

  const openPaidOrder = (vip: { active: boolean; end_at: string }) =>
    renderApp(`/vip/checkout?order_no=${pending.order_no}`, {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/order': {
          status: 200,
          body: { ...pending, status: 1, provider: 'alipay', vip_end_at: '2099-01-31T00:00:00Z' },
        },
        'GET /api/v1/vip': { status: 200, body: { user_id: 2, ...vip } },
      },
    });

  it('shows the result of a paid order with the VIP end date', async () => {
    openPaidOrder({ active: true, end_at: '2099-01-31T00:00:00Z' });
    expect(await screen.findByRole('heading', { name: '支付成功' })).toBeTruthy();
    expect(await screen.findByText('VIP 会员有效期至 2099-01-31 08:00')).toBeTruthy();
  });

  it("gives a paid order's result the member's VIP end as it now stands, not the interval the order added", async () => {
    // A later order of 365 days follows this one's interval (2099-01-31): the VIP ends a year later.
    openPaidOrder({ active: true, end_at: '2100-01-31T00:00:00Z' });
    expect(await screen.findByText('VIP 会员有效期至 2100-01-31 08:00')).toBeTruthy();
    expect(screen.queryByText(/2099-01-31/)).toBeNull();
  });

  it('says when the VIP a paid order bought has ended since (revoked by an admin)', async () => {
    openPaidOrder({ active: false, end_at: '2024-06-01T00:00:00Z' });
    expect(await screen.findByText('VIP 已于 2024-06-01 08:00 到期')).toBeTruthy();
    expect(screen.queryByText(/有效期至/)).toBeNull();
  });

  it('starts one payment of an order from 我的订单 however often 立即支付 is clicked', async () => {
    const { fetchMock } = renderApp(`/vip/checkout?order_no=${pending.order_no}`, {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/order': { status: 200, body: pending },
        'POST /api/v1/order/pay': {
          status: 200,
          body: {
            order: { ...pending, provider: 'manual' },
            provider: 'manual',
            instructions: '请转账至 招商银行 6225',
          },
        },
      },
    });
    const release = holdCalls(fetchMock, (url) => url.pathname === '/api/v1/order/pay');
    const pay = await screen.findByRole('button', { name: '立即支付' });
    // A double click, its second click before the button shows it is busy.
    await userEvent.setup({ delay: null }).dblClick(pay);
    release();
    expect(await screen.findByText('请转账至 招商银行 6225')).toBeTruthy();
    expect(calls(fetchMock, 'POST', '/api/v1/order/pay')).toHaveLength(1);
    expect(bodyOf(calls(fetchMock, 'POST', '/api/v1/order/pay')[0])).toEqual({
      order_no: pending.order_no,
      provider: 'manual',
      device: 'pc',
    });
  });

  it.each([
    ['to pay', pending],
    ['submitted as a transfer', { ...pending, provider: 'manual', instructions: '请转账至 招商银行 6225' }],
  ])('cancels a pending order %s only once the member confirms', async (_, order) => {
    const { fetchMock } = renderApp(`/vip/checkout?order_no=${pending.order_no}`, {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/order': { status: 200, body: order },
        'PUT /api/v1/order/cancel': { status: 200, body: { ...pending, status: 2, close_reason: 'cancel' } },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '取消订单' }));
    const question = screen.getByRole('group', {
      name: '取消后订单将关闭，无法再支付（已转账请勿取消）。确定取消订单？',
    });
    expect(calls(fetchMock, 'PUT', '/api/v1/order/cancel')).toHaveLength(0);
    await userEvent.click(within(question).getByRole('button', { name: '取消' }));
    expect(calls(fetchMock, 'PUT', '/api/v1/order/cancel')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: '取消订单' }));
    await userEvent.click(screen.getByRole('button', { name: '确定取消' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '订单已取消')).toBe(true));
    expect(bodyOf(calls(fetchMock, 'PUT', '/api/v1/order/cancel')[0])).toEqual({ order_no: pending.order_no });
  });

  it('shows the new price when the server refuses an order placed at an old one', async () => {
    const repriced = {
      ...onSale,
      vip: { ...onSale.vip, plans: [{ code: 'month', title: '月度会员', days: 30, price: 35 }] },
    };
    renderApp('/vip/checkout?plan=month', {
      user: member,
      settings: onSale,
      backend: {
        'POST /api/v1/order': { status: 400, body: { code: 9, message: '套餐价格已变更，请刷新页面后重新下单' } },
        'GET /api/v1/settings': { status: 200, body: repriced },
      },
    });
    expect(await screen.findByText('¥30.00')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '立即支付' }));
    expect(await screen.findByText('¥35.00')).toBeTruthy();
    expect(toasts.value.some((t) => t.title === '下单失败')).toBe(true);
  });

  it('refuses an unknown plan and says why an order cannot be found', async () => {
    const unknown = renderApp('/vip/checkout?plan=lifetime', { user: member, settings: onSale });
    expect(await screen.findByText('套餐不存在或已下架')).toBeTruthy();
    expect(screen.getByText('请返回会员页重新选择套餐。')).toBeTruthy();
    unknown.unmount();
    renderApp('/vip/checkout?order_no=123', {
      user: member,
      settings: onSale,
      backend: { 'GET /api/v1/order': { status: 404, body: { code: 5, message: '订单不存在' } } },
    });
    expect(await screen.findByText('订单不存在')).toBeTruthy();
    // Asking again cannot find it: the member's own orders can.
    expect(screen.queryByRole('button', { name: '重试' })).toBeNull();
    expect(screen.getByRole('link', { name: '查看我的订单' }).getAttribute('href')).toBe('/member/order');
  });

  it('asks to choose a plan first, not that one was withdrawn, when none is named', async () => {
    renderApp('/vip/checkout', { user: member, settings: onSale });
    expect(await screen.findByText('请先选择会员套餐')).toBeTruthy();
    expect(screen.getByText('在会员页选择要开通的套餐后再来下单。')).toBeTruthy();
    expect(screen.queryByText(/套餐不存在|已下架/)).toBeNull();
    expect(screen.getByRole('link', { name: '查看会员套餐' }).getAttribute('href')).toBe('/vip');
  });

  it.each(['/vip/checkout?plan=year', '/vip/checkout', '/vip/checkout?plan=lifetime'])(
    'says %s cannot be bought while VIP is off sale, without asking to choose another plan (all are closed)',
    async (path) => {
      renderApp(path, {
        user: member,
        settings: { ...onSale, vip: { ...onSale.vip, enable: false } },
      });
      expect(await screen.findByText('VIP 会员暂未开放购买')).toBeTruthy();
      expect(screen.getByText('本站暂未开放 VIP 会员购买，请稍后再来或联系网站管理员。')).toBeTruthy();
      expect(screen.queryByText(/重新选择套餐|套餐不存在/)).toBeNull();
      expect(screen.getByRole('link', { name: '查看会员套餐' }).getAttribute('href')).toBe('/vip');
    },
  );
});

describe('member screens', () => {
  /** The question 取消订单 asks in place, as the checkout asks it. */
  const cancelQuestion = (table: ReturnType<typeof within>) =>
    within(table.getByRole('group', { name: '取消后订单将关闭，无法再支付（已转账请勿取消）。确定取消订单？' }));

  it('/member/order lists the orders; pending ones can be paid again or cancelled once the member confirms', async () => {
    const paid: Order = {
      ...pending,
      id: 8,
      order_no: '2024050110203012349999',
      status: 1,
      provider: 'wechat',
      paid_at: '2024-05-01T02:30:00Z',
    };
    const { fetchMock, router } = renderApp('/member/order', {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/order/mine': { status: 200, body: { total: 2, order: [pending, paid] } },
        'PUT /api/v1/order/cancel': { status: 200, body: { ...pending, status: 2 } },
      },
    });
    const table = within(await screen.findByRole('table'));
    expect(table.getByText('待支付')).toBeTruthy();
    expect(table.getByText('已支付')).toBeTruthy();
    expect(table.getByText('微信支付')).toBeTruthy();
    await userEvent.click(table.getByRole('button', { name: `取消订单 ${pending.order_no}` }));
    expect(calls(fetchMock, 'PUT', '/api/v1/order/cancel')).toHaveLength(0);
    // A double click on 确定取消 while the first cancel is out cancels once.
    const release = holdCalls(fetchMock, (url) => url.pathname === '/api/v1/order/cancel');
    await userEvent.setup({ delay: null }).dblClick(cancelQuestion(table).getByRole('button', { name: '确定取消' }));
    release();
    await waitFor(() => expect(toasts.value.some((t) => t.title === '订单已取消')).toBe(true));
    expect(calls(fetchMock, 'PUT', '/api/v1/order/cancel')).toHaveLength(1);
    await userEvent.click(table.getByRole('button', { name: '去支付' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?order_no=${pending.order_no}`));
  });

  it('/member/order shows an order as it now stands when the server refuses to cancel it (closed meanwhile)', async () => {
    let closed = false;
    const { fetchMock } = renderApp('/member/order', {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/order/mine': () => ({
          status: 200,
          body: { total: 1, order: [closed ? { ...pending, status: 2, close_reason: 'timeout' } : pending] },
        }),
        'PUT /api/v1/order/cancel': () => {
          closed = true;
          return { status: 400, body: { code: 9, message: '订单已关闭，无法取消' } };
        },
      },
    });
    const table = within(await screen.findByRole('table'));
    await userEvent.click(table.getByRole('button', { name: `取消订单 ${pending.order_no}` }));
    await userEvent.click(cancelQuestion(table).getByRole('button', { name: '确定取消' }));
    await waitFor(() => expect(calls(fetchMock, 'PUT', '/api/v1/order/cancel')).toHaveLength(1));
    expect(await table.findByText('已关闭（超时未支付）')).toBeTruthy();
    expect(table.queryByRole('button', { name: '去支付' })).toBeNull();
    expect(toasts.value.some((t) => t.title === '取消订单失败')).toBe(true);
  });

  it('/member/order warns before cancelling a transfer that one already sent is lost, and 取消 keeps the order', async () => {
    const transfer: Order = { ...pending, provider: 'manual' };
    const { fetchMock, router } = renderApp('/member/order', {
      user: member,
      settings: onSale,
      backend: { 'GET /api/v1/order/mine': { status: 200, body: { total: 1, order: [transfer] } } },
    });
    const table = within(await screen.findByRole('table'));
    await userEvent.click(table.getByRole('button', { name: `取消订单 ${transfer.order_no}` }));
    const question = cancelQuestion(table);
    expect(question.getByText(/已转账请勿取消/)).toBeTruthy();
    await userEvent.click(question.getByRole('button', { name: '取消' }));
    expect(table.getByRole('button', { name: `取消订单 ${transfer.order_no}` })).toBeTruthy();
    // A transfer waits for the admin, as its checkout says: not 待支付 and 去支付 to a member who sent it.
    expect(table.getByText('待确认收款')).toBeTruthy();
    expect(table.queryByText('待支付')).toBeNull();
    expect(table.queryByRole('button', { name: '去支付' })).toBeNull();
    await userEvent.click(table.getByRole('button', { name: '查看订单' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?order_no=${encodeURIComponent(transfer.order_no ?? '')}`),
    );
    expect(calls(fetchMock, 'PUT', '/api/v1/order/cancel')).toHaveLength(0);
  });

  it('/member/order says why a closed order closed', async () => {
    const closed = (id: number, close_reason: string): Order => ({
      ...pending,
      id,
      order_no: `20240501102030123400${id}`,
      status: 2,
      close_reason,
    });
    renderApp('/member/order', {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/order/mine': {
          status: 200,
          body: { total: 3, order: [closed(11, 'cancel'), closed(12, 'timeout'), closed(13, 'admin')] },
        },
      },
    });
    const table = within(await screen.findByRole('table'));
    const status = (no: string) => table.getByText(no).closest('tr')?.textContent;
    expect(status('2024050110203012340011')).toContain('已关闭（会员取消）');
    expect(status('2024050110203012340012')).toContain('已关闭（超时未支付）');
    expect(status('2024050110203012340013')).toContain('已关闭（管理员关闭）');
  });

  it("the header's VIP link reads VIP 会员, spaced, for a VIP and 开通会员 for another member", async () => {
    const vip = { ...member, is_vip: true, vip_end_at: '2099-03-04T05:06:07Z' };
    renderApp('/vip', { user: vip, settings: onSale, backend: { 'GET /api/v1/user': { status: 200, body: vip } } });
    expect((await screen.findByRole('link', { name: 'VIP 会员' })).textContent).toBe('VIP 会员');
    act(() => clearSession());
    renderApp('/vip', { user: member, settings: onSale });
    expect((await screen.findByRole('link', { name: '开通会员' })).textContent).toBe('开通会员');
  });

  it('/member shows the VIP state with the end date', async () => {
    renderApp('/member', {
      user: member,
      settings: onSale,
      backend: {
        'GET /api/v1/user': { status: 200, body: { ...member, is_vip: true, vip_end_at: '2099-03-04T05:06:07Z' } },
        'GET /api/v1/vip': {
          status: 200,
          body: { user_id: 2, active: true, plan_title: '月度会员', end_at: '2099-03-04T05:06:07Z' },
        },
      },
    });
    const panel = within((await screen.findByRole('heading', { name: 'VIP 会员' })).closest('section') as HTMLElement);
    expect(await panel.findByText('2099-03-04 13:06')).toBeTruthy();
    expect(panel.getByRole('link', { name: '续费' }).getAttribute('href')).toBe('/vip');
  });
});

const perm = (id: number, service: string, rpc: string): Permission => ({
  id,
  method: 'GRPC',
  path: `/api.v1.${service}/${rpc}`,
  title: rpc,
});

describe('admin screens', () => {
  /**
   * Types `text` in the open dialog's field `label` and presses its `button`: nothing went to
   * `method path` before the press, one call after, whose body it answers.
   */
  const sendFromDialog = async (
    dialog: ReturnType<typeof within>,
    fetchMock: ReturnType<typeof renderApp>['fetchMock'],
    { label, text, button }: { label: string; text: string; button: string },
    [method, path]: [string, string],
  ) => {
    await userEvent.type(await dialog.findByLabelText(label), text);
    expect(calls(fetchMock, method, path)).toHaveLength(0);
    await userEvent.click(dialog.getByRole('button', { name: button }));
    await waitFor(() => expect(calls(fetchMock, method, path)).toHaveLength(1));
    return bodyOf(calls(fetchMock, method, path)[0]);
  };
  /** Confirms the receipt the open dialog asks about with `reason`, which goes in one call with the order's id. */
  const confirmReceipt = async (
    dialog: ReturnType<typeof within>,
    fetchMock: ReturnType<typeof renderApp>['fetchMock'],
    id: number,
    reason: string,
  ) => {
    const body = await sendFromDialog(dialog, fetchMock, { label: '收款说明', text: reason, button: '确认收款' }, [
      'PUT',
      '/api/v1/order/confirm',
    ]);
    expect(body).toEqual({ id, reason });
  };

  it('/admin/order confirms a transfer with a reason, checked before sending', async () => {
    const { fetchMock } = renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder'), perm(2, 'OrderAPI', 'ConfirmOrder')],
      backend: {
        'GET /api/v1/order/list': { status: 200, body: { total: 1, order: [{ ...pending, provider: 'manual' }] } },
        'PUT /api/v1/order/confirm': { status: 200, body: { ...pending, status: 1 } },
      },
    });
    expect(await screen.findByRole('heading', { name: '订单管理' })).toBeTruthy();
    expect(await screen.findByText(pending.order_no!)).toBeTruthy();
    expect(screen.queryByRole('button', { name: `退款 ${pending.order_no}` })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: `确认收款 ${pending.order_no}` }));
    const dialog = within(await screen.findByRole('dialog'));
    // The dialog covers the row: it names the buyer, the plan and the amount to check the transfer against.
    const facts = [...screen.getByRole('dialog').querySelectorAll('dt')].map(
      (dt) => `${dt.textContent}：${dt.nextElementSibling?.textContent}`,
    );
    expect(facts).toEqual(['用户：amy', '套餐：月度会员（30 天）', '金额：¥30.00', '支付方式：线下转账']);
    await userEvent.click(dialog.getByRole('button', { name: '确认收款' }));
    expect(await dialog.findByText('请输入收款说明')).toBeTruthy();
    expect(calls(fetchMock, 'PUT', '/api/v1/order/confirm')).toHaveLength(0);
    await confirmReceipt(dialog, fetchMock, 7, '已收到转账');
  });

  it('/admin/order shows which pending orders have a transfer submitted, and asks first to confirm one without', async () => {
    const online = { ...pending, id: 8, order_no: '2024050110203012345679', provider: 'alipay' };
    const unchosen = { ...pending, id: 9, order_no: '2024050110203012345680' };
    const { fetchMock } = renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder'), perm(2, 'OrderAPI', 'ConfirmOrder')],
      backend: {
        'GET /api/v1/order/list': {
          status: 200,
          body: { total: 3, order: [{ ...pending, provider: 'manual' }, online, unchosen] },
        },
        'PUT /api/v1/order/confirm': { status: 200, body: { ...online, status: 1 } },
      },
    });
    const row = async (no: string) => (await screen.findByText(no)).closest('tr') as HTMLElement;
    // The row says which is which: a submitted transfer waits for 确认收款, the others wait for payment.
    expect((await row(pending.order_no!)).textContent).toContain('待确认收款线下转账');
    expect((await row(online.order_no)).textContent).toContain('待支付支付宝');
    expect((await row(unchosen.order_no)).textContent).toContain('待支付');
    expect((await row(unchosen.order_no)).textContent).not.toContain('待确认收款');

    // No transfer submitted: a question that says so comes before the reason, and 取消 ends it.
    await userEvent.click(screen.getByRole('button', { name: `确认收款 ${online.order_no}` }));
    let dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(`确认收款 · ${online.order_no}`)).toBeTruthy();
    expect(
      dialog.getByText('会员没有为这笔订单提交线下转账：选择了支付宝，但支付渠道未通知本站已付款，订单仍为待支付。'),
    ).toBeTruthy();
    expect(dialog.queryByLabelText('收款说明')).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: `确认收款 ${unchosen.order_no}` }));
    dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('会员没有为这笔订单提交线下转账，也没有选择支付方式，订单仍为待支付。')).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // 已核实，继续 leads to the reason, and only its 确认收款 calls ConfirmOrder.
    await userEvent.click(screen.getByRole('button', { name: `确认收款 ${online.order_no}` }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '已核实，继续' }));
    const reason = within(await screen.findByRole('dialog', { name: `确认收款 · ${online.order_no}` }));
    await confirmReceipt(reason, fetchMock, 8, '支付宝商户平台已到账，通知丢失');
  });

  it('/admin/order, with no order yet, shows an empty box, not the picture that invites adding one', async () => {
    renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder'), perm(2, 'OrderAPI', 'CloseOrder')],
      backend: { 'GET /api/v1/order/list': { status: 200, body: { total: 0, order: [] } } },
    });
    const state = (await screen.findByText('暂无订单')).closest('.app-state') as HTMLElement;
    await waitFor(() =>
      expect(state.querySelector('[data-illustration]')?.getAttribute('data-illustration')).toBe('noResult'),
    );
    expect(state.textContent).toBe('暂无订单');
  });

  it('/admin/order says an order the provider reports paid when closing it was not closed', async () => {
    renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder'), perm(2, 'OrderAPI', 'CloseOrder')],
      backend: {
        'GET /api/v1/order/list': { status: 200, body: { total: 1, order: [{ ...pending, provider: 'alipay' }] } },
        'PUT /api/v1/order/close': { status: 200, body: { skipped: [{ ...pending, status: 1 }] } },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: `关闭订单 ${pending.order_no}` }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText('关闭原因'), '用户要求取消');
    await userEvent.click(dialog.getByRole('button', { name: '关闭订单' }));
    await waitFor(() =>
      expect(toasts.value.find((t) => t.title === '关闭订单失败')?.description).toBe(
        `订单 ${pending.order_no} 已支付，未关闭`,
      ),
    );
    expect(toasts.value.some((t) => t.title === '订单已关闭')).toBe(false);
  });

  it('/admin/order confirms a transfer closed by its timeout, not one the member cancelled or an admin closed', async () => {
    const closed = (id: number, close_reason: string, provider = 'manual'): Order => ({
      ...pending,
      id,
      order_no: `20240501102030123400${id}`,
      status: 2,
      provider,
      close_reason,
    });
    const { fetchMock } = renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder'), perm(2, 'OrderAPI', 'ConfirmOrder')],
      backend: {
        'GET /api/v1/order/list': {
          status: 200,
          body: {
            total: 4,
            order: [closed(11, 'timeout'), closed(12, 'cancel'), closed(13, 'admin'), closed(14, 'timeout', 'alipay')],
          },
        },
        'PUT /api/v1/order/confirm': { status: 200, body: { ...closed(11, 'timeout'), status: 1 } },
      },
    });
    expect(await screen.findByText('2024050110203012340011')).toBeTruthy();
    for (const no of ['2024050110203012340012', '2024050110203012340013', '2024050110203012340014'])
      expect(screen.queryByRole('button', { name: `确认收款 ${no}` })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '确认收款 2024050110203012340011' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/这笔线下转账订单已超时关闭/)).toBeTruthy();
    await confirmReceipt(dialog, fetchMock, 11, '转账已到账');
  });

  it("/admin/order names the times of an order's detail alike, 关闭时间 with its reason included", async () => {
    renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder')],
      backend: {
        'GET /api/v1/order/list': {
          status: 200,
          body: {
            total: 1,
            order: [
              { ...pending, provider: 'manual', status: 2, close_reason: 'timeout', closed_at: '2024-05-01T04:20:30Z' },
            ],
          },
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: `订单 ${pending.order_no} 详情` }));
    const sheet = (await screen.findByText(`订单详情 · ${pending.order_no}`)).closest('.semi-sidesheet') as HTMLElement;
    const labels = [...sheet.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(labels.filter((label) => /时间|期限/.test(label ?? ''))).toEqual([
      '下单时间',
      '支付期限',
      '支付时间',
      '关闭时间',
      '退款时间',
    ]);
    const closedAt = [...sheet.querySelectorAll('dt')].find((dt) => dt.textContent === '关闭时间');
    expect(closedAt?.nextElementSibling?.textContent).toMatch(/^2024-05-01 12:20.*（超时未支付）$/);
  });

  it("/admin/order closes an order's detail with Escape and gives the keyboard back to 详情", async () => {
    renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder')],
      backend: {
        'GET /api/v1/order/list': { status: 200, body: { total: 1, order: [{ ...pending, provider: 'manual' }] } },
      },
    });
    const opener = await screen.findByRole('button', { name: `订单 ${pending.order_no} 详情` });
    await userEvent.click(opener);
    expect(await screen.findByText(`订单详情 · ${pending.order_no}`)).toBeTruthy();
    // The keyboard is inside the sheet (on its ✕) when Escape is pressed; Semi reads the key's
    // keyCode, which a browser sets and user-event does not.
    const inside = screen.getByRole('button', { name: '关闭' });
    act(() => inside.focus());
    fireEvent.keyDown(inside, { key: 'Escape', code: 'Escape', keyCode: 27 });
    await waitFor(() => expect(screen.queryByText(`订单详情 · ${pending.order_no}`)).toBeNull());
    expect(document.activeElement).toBe(opener);
    // The ✕ closes it the same way.
    await userEvent.click(opener);
    await userEvent.click(await screen.findByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByText(`订单详情 · ${pending.order_no}`)).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  // An admin's side sheet of records, opened empty from its button.
  const recordSheets: {
    title: string;
    path: string;
    permissions: Permission[];
    backend: Backend;
    opener: string;
    empty: string;
  }[] = [
    {
      title: '/admin/order closes 支付通知记录 with Escape and gives the keyboard back to its button',
      path: '/admin/order',
      permissions: [perm(1, 'OrderAPI', 'ListOrder'), perm(2, 'OrderAPI', 'ListPaymentNotification')],
      backend: {
        'GET /api/v1/order/list': { status: 200, body: { total: 1, order: [{ ...pending, provider: 'manual' }] } },
        'GET /api/v1/order/notification': { status: 200, body: { total: 0, notification: [] } },
      },
      opener: '支付通知记录',
      empty: '暂无支付通知',
    },
    {
      title: "/admin/user/vip closes a member's 会员变更记录 with Escape and gives the keyboard back to 记录",
      path: '/admin/user/vip',
      permissions: [perm(1, 'UserVipAPI', 'ListUserVip'), perm(2, 'UserVipAPI', 'ListUserVipLog')],
      backend: {
        'GET /api/v1/vip/list': {
          status: 200,
          body: { total: 1, user_vip: [{ user_id: 2, username: 'amy', active: true, end_at: '2099-01-01T00:00:00Z' }] },
        },
        'GET /api/v1/vip/log': { status: 200, body: { total: 0, log: [] } },
      },
      opener: '“amy”的变更记录',
      empty: '暂无变更记录',
    },
  ];
  for (const { title, path, permissions, backend, opener: name, empty } of recordSheets)
    it(title, async () => {
      renderApp(path, { user: admin, permissions, backend });
      const opener = await screen.findByRole('button', { name });
      await userEvent.click(opener);
      expect(await screen.findByText(empty)).toBeTruthy();
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(document.querySelector('.semi-sidesheet-inner')).toBeNull());
      expect(document.activeElement).toBe(opener);
    });

  it('/admin/order keeps a reason being written when a click lands beside its dialog', async () => {
    renderApp('/admin/order', {
      user: admin,
      permissions: [perm(1, 'OrderAPI', 'ListOrder'), perm(2, 'OrderAPI', 'ConfirmOrder')],
      backend: {
        'GET /api/v1/order/list': { status: 200, body: { total: 1, order: [{ ...pending, provider: 'manual' }] } },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: `确认收款 ${pending.order_no}` }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText('收款说明'), '已收到转账');
    await userEvent.click(document.querySelector('.semi-modal-wrap') as HTMLElement);
    expect((screen.getByLabelText('收款说明') as HTMLTextAreaElement).value).toBe('已收到转账');
  });

  it('/admin/user/vip grants days to chosen users with a reason', async () => {
    const { fetchMock } = renderApp('/admin/user/vip', {
      user: admin,
      permissions: [perm(1, 'UserVipAPI', 'ListUserVip'), perm(2, 'UserVipAPI', 'GrantUserVip')],
      backend: {
        'GET /api/v1/vip/list': {
          status: 200,
          body: {
            total: 1,
            user_vip: [
              { user_id: 2, username: 'amy', active: true, plan_title: '月度会员', end_at: '2099-01-01T00:00:00Z' },
            ],
          },
        },
        'GET /api/v1/user/list': { status: 200, body: { total: 1, user: [{ id: 2, username: 'amy' }] } },
        'POST /api/v1/vip/grant': { status: 200, body: {} },
      },
    });
    expect(await screen.findByRole('heading', { name: '会员管理' })).toBeTruthy();
    expect(await screen.findByText('amy')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '延长“amy”的会员' }));
    const dialog = within(await screen.findByRole('dialog'));
    const body = await sendFromDialog(dialog, fetchMock, { label: '原因', text: '活动赠送', button: '延长' }, [
      'POST',
      '/api/v1/vip/grant',
    ]);
    expect(body).toEqual({ user_id: [2], days: 30, reason: '活动赠送' });
  });

  it("/admin/user/vip's 会员变更记录 names a purchase by its order number, not by the order's id as well", async () => {
    renderApp('/admin/user/vip', {
      user: admin,
      permissions: [perm(1, 'UserVipAPI', 'ListUserVip'), perm(2, 'UserVipAPI', 'ListUserVipLog')],
      backend: {
        'GET /api/v1/vip/list': {
          status: 200,
          body: { total: 1, user_vip: [{ user_id: 2, username: 'amy', active: true, end_at: '2099-01-01T00:00:00Z' }] },
        },
        'GET /api/v1/vip/log': {
          status: 200,
          body: {
            total: 2,
            log: [
              {
                id: 2,
                action: 4,
                days: -30,
                order_id: 7,
                operator: 'admin',
                reason: '会员申请退款',
                end_after: '2098-12-01T00:00:00Z',
                created_at: '2024-05-02T02:00:00Z',
              },
              {
                id: 1,
                action: 1,
                days: 30,
                order_id: 7,
                reason: `订单 ${pending.order_no}`,
                end_after: '2099-01-01T00:00:00Z',
                created_at: '2024-05-01T02:30:00Z',
              },
            ],
          },
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '“amy”的变更记录' }));
    const entries = within(await screen.findByRole('list', { name: '会员变更记录' })).getAllByRole('listitem');
    expect(entries[0]?.querySelector('.app-resource-muted')?.textContent).toBe(
      '2024-05-02 10:00 · admin · 会员申请退款',
    );
    expect(entries[1]?.querySelector('.app-resource-muted')?.textContent).toBe(
      `2024-05-01 10:30 · 订单 ${pending.order_no}`,
    );
  });

  it('/admin/user/vip draws no 操作 column for a role that may only list members, and 延长, 取消会员, 记录 for one that may', async () => {
    const kefu = { id: 9, username: 'kefu' };
    const listed = perm(1, 'UserVipAPI', 'ListUserVip');
    const backend: Backend = {
      'GET /api/v1/vip/list': {
        status: 200,
        body: { total: 1, user_vip: [{ user_id: 2, username: 'amy', active: true, end_at: '2099-01-01T00:00:00Z' }] },
      },
    };
    const { unmount } = renderApp('/admin/user/vip', { user: kefu, permissions: [listed], backend });
    expect(await screen.findByText('amy')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: '操作' })).toBeNull();
    unmount();

    renderApp('/admin/user/vip', {
      user: kefu,
      permissions: [
        listed,
        perm(2, 'UserVipAPI', 'GrantUserVip'),
        perm(3, 'UserVipAPI', 'RevokeUserVip'),
        perm(4, 'UserVipAPI', 'ListUserVipLog'),
      ],
      backend,
    });
    expect(await screen.findByText('amy')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeTruthy();
    for (const name of ['延长“amy”的会员', '取消“amy”的会员', '“amy”的变更记录'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  /** /admin/config/vip for an admin, with one textarea row of the vip config; saves succeed. */
  const renderVipConfig = (row: { id: number; name: string; label: string; value: string }) =>
    renderApp('/admin/config/vip', {
      user: admin,
      permissions: [perm(1, 'ConfigAPI', 'ListConfig')],
      backend: {
        'GET /api/v1/config/list': {
          status: 200,
          body: { config: [{ ...row, category: 'vip', input_type: 'textarea' }] },
        },
        'PUT /api/v1/config': { status: 200, body: {} },
        'GET /api/v1/settings': { status: 200, body: onSale },
      },
    });

  it('/admin/config/vip edits the benefits with the rich-text editor and sends its HTML', async () => {
    const { fetchMock } = renderVipConfig({
      id: 11,
      name: 'benefits',
      label: '会员权益说明',
      value: '<ul><li>免积分下载</li></ul>',
    });
    const editor = await screen.findByRole('textbox', { name: '会员权益说明' });
    expect(editor.getAttribute('contenteditable')).toBe('true');
    expect(within(editor).getByText('免积分下载').closest('li')).toBeTruthy();
    expect(screen.getByRole('toolbar', { name: '编辑工具' })).toBeTruthy();
    expect(screen.getByLabelText('选择要插入的图片').getAttribute('data-upload-kind')).toBe('config');
    // The toolbar's list button turns the list item into a paragraph: the editor's HTML is what is sent.
    await userEvent.click(screen.getByRole('button', { name: '无序列表' }));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls(fetchMock, 'PUT', '/api/v1/config')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'PUT', '/api/v1/config')[0])).toEqual({
      config: [{ id: 11, category: 'vip', name: 'benefits', value: '<p>免积分下载</p>' }],
    });
  });

  it("/admin/config/vip edits the plans as a table and keeps the config's text", async () => {
    const { fetchMock } = renderVipConfig({ id: 9, name: 'plans', label: '会员套餐', value: 'month|月度会员|30|30' });
    expect(((await screen.findByLabelText('第 1 个套餐的名称')) as HTMLInputElement).value).toBe('月度会员');
    // The hint is sentences, the last one ended like the others.
    expect(screen.getByText(/^每行一个套餐，会员页按表中顺序展示。/).textContent).toMatch(/突出显示。$/);
    await userEvent.click(screen.getByRole('button', { name: /添加套餐/ }));
    await userEvent.type(screen.getByLabelText('第 2 个套餐的代码'), 'year');
    await userEvent.type(screen.getByLabelText('第 2 个套餐的名称'), '年度|会员');
    await userEvent.clear(screen.getByLabelText('第 2 个套餐的天数'));
    await userEvent.type(screen.getByLabelText('第 2 个套餐的天数'), '365');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('第 2 个套餐：价格须在 0.01 到 100000 元之间，最多两位小数')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('第 2 个套餐的价格（元）'), '298');
    await userEvent.click(screen.getByRole('switch', { name: '第 2 个套餐推荐' }));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls(fetchMock, 'PUT', '/api/v1/config')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'PUT', '/api/v1/config')[0])).toEqual({
      config: [{ id: 9, category: 'vip', name: 'plans', value: 'month|月度会员|30|30\nyear|年度会员|365|298||1' }],
    });
  });
});
