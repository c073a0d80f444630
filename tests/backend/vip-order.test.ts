import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseNow } from '../../backend/db/dialect';
import { ConfigStore } from '../../backend/platform/config-store';
import { SHORT_DATE_FORMAT, formatDate } from '../../shared/format';
import { vipBenefits } from '../../backend/modules/vip/service';
import { api, registerMember, startBackend, useBackend, withDatabase, type Member } from '../helpers/backend';
import { withClockOff } from '../helpers/clock';

// VIP periods, orders and the manual provider (docs/api.md §9–§10) through HTTP on a real
// SQLite: ordering a plan of the `vip` config, paying by transfer confirmed by an admin,
// refunds, cancels, the timeout job, and the admins' grants and revokes.

const DAY_MS = 24 * 3600_000;
const INSTRUCTIONS = '请转账至 招商银行 6225 0000 0000 0000（户名：魔豆文库），备注填写订单号。';
const MANUAL_ENV = {
  CONFIG_VIP_ENABLE: 'true',
  CONFIG_PAY_ENABLE: 'true',
  CONFIG_PAY_PROVIDER: 'manual',
  CONFIG_PAY_MANUAL_INSTRUCTIONS: INSTRUCTIONS,
  // an order's expiry job made due by the test is taken within 0.1 s, not the default 1 s
  JOB_POLL_MS: '100',
};

const backend = useBackend({ env: MANUAL_ENV });

const createOrder = (member: Member, plan_code: string, price: number) =>
  api(backend.url, 'POST', '/api/v1/order', { token: member.token, body: { plan_code, price } });
const payOrder = (member: Member, order_no: string, provider = 'manual') =>
  api(backend.url, 'POST', '/api/v1/order/pay', { token: member.token, body: { order_no, provider } });
const getOrder = (token: string, query: Record<string, string | number>, url = backend.url) =>
  api(url, 'GET', '/api/v1/order', { token, query });
const myVip = (member: Member) => api(backend.url, 'GET', '/api/v1/vip', { token: member.token });
const confirm = (id: number, reason = '已收到转账') =>
  backend.admin('PUT', '/api/v1/order/confirm', { body: { id, reason } });

async function paidMonth(member: Member) {
  const created = await createOrder(member, 'month', 30);
  expect(created.status, created.text).toBe(200);
  const confirmed = await confirm(created.body.id);
  expect(confirmed.status, confirmed.text).toBe(200);
  return confirmed.body;
}

describe('VIP state', () => {
  it('is off for a new member: GetUserVip, GET /api/v1/user, and no benefits', async () => {
    const member = await registerMember(backend.url);
    const vip = await myVip(member);
    expect(vip.status).toBe(200);
    expect(vip.body).toEqual({ user_id: member.user.id, username: member.username });
    const user = await api(backend.url, 'GET', '/api/v1/user', { token: member.token });
    expect(user.body.is_vip).toBeUndefined();
    expect(user.body.vip_end_at).toBeUndefined();
    expect((await api(backend.url, 'GET', '/api/v1/vip')).status).toBe(401);
  });

  it('publishes the plans (recommended marked) and the offered providers in the settings', async () => {
    const settings = await api(backend.url, 'GET', '/api/v1/settings');
    expect(settings.body.vip.plans).toEqual([
      { code: 'month', title: '月度会员', days: 30, price: 30 },
      { code: 'quarter', title: '季度会员', days: 90, price: 80 },
      { code: 'year', title: '年度会员', days: 365, price: 298, description: '最划算', recommended: true },
    ]);
    expect(settings.body.vip).toMatchObject({
      enable: true,
      free_download: true,
      read_all_pages: true,
      times_every_day: 50,
    });
    expect(settings.body.pay).toEqual({ enable: true, provider: 'manual', providers: ['manual'] });
    expect(settings.text).not.toContain('招商银行');
  });
});

describe('OrderAPI.CreateOrder', () => {
  /** A site as installed: VIP sales and payment off. */
  const fresh = useBackend();
  let member: Member;
  beforeAll(async () => {
    member = await registerMember(backend.url);
  });

  it('copies the plan (days, price in fen) into a pending order with a unique number and a deadline', async () => {
    const before = Date.now();
    const res = await createOrder(member, 'quarter', 80);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      user_id: member.user.id,
      username: member.username,
      plan_code: 'quarter',
      plan_title: '季度会员',
      days: 90,
      amount: 8000,
    });
    expect(res.body.status).toBeUndefined(); // 0 = pending, omitted on the wire
    expect(res.body.order_no).toMatch(/^\d{22}$/);
    const deadline = Date.parse(res.body.expires_at);
    expect(deadline).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);
  });

  it('gives the same pending order for the same plan: a double click, or five at once, make one order', async () => {
    const first = await createOrder(member, 'month', 30);
    const again = await createOrder(member, 'month', 30);
    const burst = await Promise.all(Array.from({ length: 5 }, () => createOrder(member, 'month', 30)));
    expect(new Set([first, again, ...burst].map((r) => r.body.order_no))).toEqual(new Set([first.body.order_no]));
    const mine = await api(backend.url, 'GET', '/api/v1/order/mine', { token: member.token, query: { status: 0 } });
    expect(mine.body.order.filter((o: { plan_code: string }) => o.plan_code === 'month')).toHaveLength(1);
  });

  it('keeps one pending order per member: another plan closes the one held, which can then not be paid', async () => {
    const buyer = await registerMember(backend.url);
    const month = (await createOrder(buyer, 'month', 30)).body;
    const year = await createOrder(buyer, 'year', 298);
    expect(year.status, year.text).toBe(200);
    expect(year.body.plan_code).toBe('year');
    expect((await getOrder(buyer.token, { order_no: month.order_no })).body).toMatchObject({
      status: 2,
      close_reason: 'replaced',
    });
    const pending = await api(backend.url, 'GET', '/api/v1/order/mine', { token: buyer.token, query: { status: 0 } });
    expect(pending.body.order.map((o: { order_no: string }) => o.order_no)).toEqual([year.body.order_no]);
    const late = await payOrder(buyer, month.order_no);
    expect([late.status, late.body.message]).toEqual([400, '订单已关闭，无法继续支付']);
    // Back to the first plan: a new order again, the year's closed.
    const again = (await createOrder(buyer, 'month', 30)).body;
    expect(again.order_no).not.toBe(month.order_no);
    expect((await getOrder(buyer.token, { order_no: year.body.order_no })).body.status).toBe(2);
  });

  it('leaves a transfer submitted for the admin: another plan is refused until the member cancels it', async () => {
    const buyer = await registerMember(backend.url);
    const month = (await createOrder(buyer, 'month', 30)).body;
    expect((await payOrder(buyer, month.order_no)).status).toBe(200);
    const refused = await createOrder(buyer, 'quarter', 80);
    expect([refused.status, refused.body.message]).toEqual([
      400,
      `您的订单 ${month.order_no}（月度会员）已提交转账，正在等待确认；如需改买其他套餐，请先取消该订单`,
    ]);
    // The same plan is the same order still; the transfer stays pending.
    expect((await createOrder(buyer, 'month', 30)).body.order_no).toBe(month.order_no);
    expect((await getOrder(buyer.token, { order_no: month.order_no })).body.status).toBeUndefined();
    const cancel = await api(backend.url, 'PUT', '/api/v1/order/cancel', {
      token: buyer.token,
      body: { order_no: month.order_no },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect((await createOrder(buyer, 'quarter', 80)).status).toBe(200);
  });

  it.each([
    ['an unknown plan', { plan_code: 'lifetime', price: 999 }, 400, '套餐不存在或已下架'],
    ['a negative price', { plan_code: 'month', price: -30 }, 400, '价格无效（参数 price）'],
    ['no price', { plan_code: 'month' }, 400, '价格无效（参数 price）'],
    ["another price than the plan's", { plan_code: 'month', price: 0.3 }, 400, '套餐价格已变更，请刷新页面后重新下单'],
  ])('refuses %s', async (_what, body, status, message) => {
    const res = await api(backend.url, 'POST', '/api/v1/order', { token: member.token, body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('refuses visitors, and everyone while VIP sales or payment are off', async () => {
    expect((await api(backend.url, 'POST', '/api/v1/order', { body: { plan_code: 'month', price: 30 } })).status).toBe(
      401,
    );
    const freshMember = await registerMember(fresh.url);
    const off = await api(fresh.url, 'POST', '/api/v1/order', {
      token: freshMember.token,
      body: { plan_code: 'month', price: 30 },
    });
    expect(off.body).toMatchObject({ code: 9, message: 'VIP 会员暂未开放购买' });
    await fresh.setConfig({ 'vip.enable': 'true' });
    const noPay = await api(fresh.url, 'POST', '/api/v1/order', {
      token: freshMember.token,
      body: { plan_code: 'month', price: 30 },
    });
    expect(noPay.body).toMatchObject({ code: 9, message: '暂未开放在线支付，请联系管理员' });
  });

  it("keeps an order's price and days when the plan changes later; a new order takes the new price", async () => {
    const buyer = await registerMember(backend.url);
    const old = await createOrder(buyer, 'year', 298);
    await backend.setConfig({
      'vip.plans': 'month|月度会员|30|30\nquarter|季度会员|90|80\nyear|年度会员|365|268|限时优惠|1',
    });
    try {
      const kept = await getOrder(buyer.token, { order_no: old.body.order_no });
      expect(kept.body).toMatchObject({ amount: 29800, days: 365 });
      expect((await createOrder(buyer, 'year', 298)).body.message).toBe('套餐价格已变更，请刷新页面后重新下单');
      const renewed = await createOrder(buyer, 'year', 268);
      expect(renewed.body).toMatchObject({ amount: 26800 });
      expect(renewed.body.order_no).not.toBe(old.body.order_no);
      // The pending order at the old price made way for the new one.
      const replaced = await getOrder(buyer.token, { order_no: old.body.order_no });
      expect(replaced.body).toMatchObject({ status: 2, close_reason: 'replaced' });
    } finally {
      await backend.setConfig({
        'vip.plans': 'month|月度会员|30|30|\nquarter|季度会员|90|80|\nyear|年度会员|365|298|最划算|1',
      });
    }
  });
});

describe('paying by transfer (manual provider)', () => {
  it("shows the instructions; refuses providers the config does not offer and other members' orders", async () => {
    const member = await registerMember(backend.url);
    const other = await registerMember(backend.url);
    const order = (await createOrder(member, 'month', 30)).body;
    const paid = await payOrder(member, order.order_no);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({
      provider: 'manual',
      instructions: INSTRUCTIONS,
      order: { order_no: order.order_no, provider: 'manual' },
    });
    expect((await payOrder(member, order.order_no, 'alipay')).body.message).toBe('暂不支持支付宝，请选择其他支付方式');
    expect((await payOrder(member, order.order_no, 'paypal')).body.message).toBe('请选择支付方式（参数 provider）');
    for (const res of [
      await payOrder(other, order.order_no),
      await getOrder(other.token, { order_no: order.order_no }),
      await api(backend.url, 'PUT', '/api/v1/order/cancel', { token: other.token, body: { order_no: order.order_no } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('订单不存在');
    }
  });

  it('gives the buyer the instructions again with a pending order submitted as a transfer, and only then', async () => {
    const member = await registerMember(backend.url);
    const order = (await createOrder(member, 'month', 30)).body;
    expect((await getOrder(member.token, { order_no: order.order_no })).body.instructions).toBeUndefined(); // not submitted yet
    expect((await payOrder(member, order.order_no)).status).toBe(200);
    const again = await getOrder(member.token, { order_no: order.order_no });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ order_no: order.order_no, provider: 'manual', instructions: INSTRUCTIONS });
    const mine = await api(backend.url, 'GET', '/api/v1/order/mine', { token: member.token });
    expect(mine.text).not.toContain('招商银行');
    expect(
      (await backend.admin('GET', '/api/v1/order', { query: { id: order.id } })).body.instructions,
    ).toBeUndefined();
    await confirm(order.id);
    const paid = await getOrder(member.token, { order_no: order.order_no });
    expect(paid.body.status).toBe(1);
    expect(paid.body.instructions).toBeUndefined();
  });

  it("an admin's confirmation pays the order and makes the member VIP for the plan's days; the next purchase extends the period", async () => {
    const member = await registerMember(backend.url);
    const before = Date.now();
    const first = await paidMonth(member);
    expect(first).toMatchObject({ status: 1, provider: 'manual', paid_amount: 3000 });
    const vip = (await myVip(member)).body;
    expect(vip).toMatchObject({ active: true, plan_code: 'month', plan_title: '月度会员' });
    const end = Date.parse(vip.end_at);
    expect(end).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(end).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    const user = await api(backend.url, 'GET', '/api/v1/user', { token: member.token });
    expect(user.body).toMatchObject({ is_vip: true, vip_end_at: vip.end_at });
    const again = await api(backend.url, 'POST', '/api/v1/user/login', {
      body: { username: member.username, password: member.password },
    });
    expect(again.body.user).toMatchObject({ is_vip: true, vip_end_at: vip.end_at });
    // Another member's view of this user says nothing about VIP.
    const seen = await api(backend.url, 'GET', '/api/v1/user', {
      token: (await registerMember(backend.url)).token,
      query: { id: member.user.id },
    });
    expect(seen.body.is_vip).toBeUndefined();

    const quarter = (await createOrder(member, 'quarter', 80)).body;
    await confirm(quarter.id);
    const extended = (await myVip(member)).body;
    expect(Date.parse(extended.end_at)).toBe(end + 90 * DAY_MS);
    expect(extended).toMatchObject({ plan_code: 'quarter', start_at: vip.start_at });
    const order = await getOrder(member.token, { order_no: quarter.order_no });
    expect(order.body).toMatchObject({ vip_start_at: vip.end_at, vip_end_at: extended.end_at });
    expect(order.body.remark).toBeUndefined(); // the admin's notes stay with admins
  });

  it('confirms once: a second confirmation is refused and grants nothing', async () => {
    const member = await registerMember(backend.url);
    const order = await paidMonth(member);
    const end = (await myVip(member)).body.end_at;
    const again = await confirm(order.id);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('只有待支付的订单、关闭后到账的订单或超时关闭的转账订单可以确认收款');
    expect((await myVip(member)).body.end_at).toBe(end);
  });

  it('a refund marks the order refunded and ends the VIP days it granted, keeping later purchases', async () => {
    const member = await registerMember(backend.url);
    const first = await paidMonth(member);
    const firstEnd = Date.parse((await myVip(member)).body.end_at);
    const second = (await createOrder(member, 'quarter', 80)).body;
    await confirm(second.id);
    const refund = await backend.admin('PUT', '/api/v1/order/refund', {
      body: { id: first.id, reason: '会员申请退款' },
    });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body).toMatchObject({ status: 3, remark: expect.stringContaining('退款：会员申请退款') });
    const after = Date.parse((await myVip(member)).body.end_at);
    // The unused days of the first order go (all but the moments since it was paid); the quarter stays.
    expect(after).toBeGreaterThanOrEqual(firstEnd + 60 * DAY_MS);
    expect(after).toBeLessThanOrEqual(firstEnd + 60 * DAY_MS + 60_000);
    const twice = await backend.admin('PUT', '/api/v1/order/refund', { body: { id: first.id, reason: '再退一次' } });
    expect(twice.body.message).toBe('只有已支付的订单或关闭后到账的订单可以退款');

    const log = await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: member.user.id } });
    expect(log.body.log.map((l: { action: number }) => l.action)).toEqual([4, 1, 1]);
    expect(log.body.log[0]).toMatchObject({ order_id: first.id, reason: '会员申请退款', operator: 'admin', days: -30 });
  });

  it("a refund after an admin revoked the VIP takes nothing back, and its log says 0 days, not the plan's", async () => {
    const member = await registerMember(backend.url);
    const order = await paidMonth(member);
    const revoked = await backend.admin('PUT', '/api/v1/vip/revoke', {
      body: { user_id: [member.user.id], reason: '违规' },
    });
    expect(revoked.status, revoked.text).toBe(200);
    const ended = (await myVip(member)).body.end_at;
    const refund = await backend.admin('PUT', '/api/v1/order/refund', { body: { id: order.id, reason: '退款' } });
    expect(refund.status, refund.text).toBe(200);
    expect((await myVip(member)).body.end_at).toBe(ended);
    const log = await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: member.user.id } });
    expect(log.body.log.map((l: { action: number }) => l.action)).toEqual([4, 3, 1]);
    expect(log.body.log[0].days ?? 0).toBe(0);
    expect(log.body.log[0].end_after).toBe(log.body.log[0].end_before);
  });

  it('a member cancels a pending order; it can no longer be paid or confirmed', async () => {
    const member = await registerMember(backend.url);
    const order = (await createOrder(member, 'month', 30)).body;
    const cancelled = await api(backend.url, 'PUT', '/api/v1/order/cancel', {
      token: member.token,
      body: { order_no: order.order_no },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 2, close_reason: 'cancel' });
    expect((await payOrder(member, order.order_no)).body).toMatchObject({
      code: 9,
      message: '订单已关闭，无法继续支付',
    });
    const again = await api(backend.url, 'PUT', '/api/v1/order/cancel', {
      token: member.token,
      body: { order_no: order.order_no },
    });
    expect(again.body.message).toBe('订单已关闭，无法取消');
    expect((await confirm(order.id)).status).toBe(400);
    expect((await myVip(member)).body.active).toBeUndefined();
  });
});

describe('order timeout', () => {
  /** Makes the order's expiry job due now (as if its minutes had passed) and waits for the queue. */
  async function expireNow(dataDir: string, orderId: number) {
    await withDatabase(dataDir, (db) =>
      db
        .updateTable('job')
        .set({ run_after: new Date(Date.now() - 1000).toISOString() })
        .where('kind', '=', 'order.expire')
        .where('dedupe_key', '=', `order.expire:${orderId}`)
        .execute(),
    );
  }

  async function waitForJob(dataDir: string, dedupeKey: string) {
    for (let i = 0; i < 100; i += 1) {
      const job = await withDatabase(dataDir, (db) =>
        db.selectFrom('job').select('state').where('dedupe_key', '=', dedupeKey).executeTakeFirstOrThrow(),
      );
      if (job.state === 'done') return;
      await sleep(100);
    }
    throw new Error(`job ${dedupeKey} never finished`);
  }

  async function waitForStatus(url: string, token: string, orderNo: string, status: number) {
    for (let i = 0; i < 100; i += 1) {
      const res = await getOrder(token, { order_no: orderNo }, url);
      if ((res.body.status ?? 0) === status) return res.body;
      await sleep(100);
    }
    throw new Error(`order ${orderNo} never reached status ${status} on ${url}`);
  }

  it('closes an unpaid order after pay.order_timeout minutes through the job queue', async () => {
    const member = await registerMember(backend.url);
    // The backend's clock 10 minutes ahead of the database's (a machine whose clock drifted): the
    // job is still due pay.order_timeout (30 minutes) after the database's now, not 40.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    let order;
    try {
      order = (await createOrder(member, 'month', 30)).body;
    } finally {
      vi.useRealTimers();
    }
    expect(Date.parse(order.expires_at) - Date.parse(order.created_at)).toBe(30 * 60_000);
    // Placed at the database's now, not 10 minutes on (the statements between: far below a minute).
    const dbNow = (await withDatabase(backend.dataDir, (db) => databaseNow(db))).getTime();
    expect(Math.abs(Date.parse(order.created_at) - dbNow)).toBeLessThan(60_000);
    const job = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('job')
        .select(['run_after', 'created_at'])
        .where('dedupe_key', '=', `order.expire:${order.id}`)
        .executeTakeFirstOrThrow(),
    );
    expect(Date.parse(job.run_after) - Date.parse(job.created_at)).toBe(30 * 60_000);
    await expireNow(backend.dataDir, order.id);
    const closed = await waitForStatus(backend.url, member.token, order.order_no, 2);
    expect(closed).toMatchObject({ close_reason: 'timeout' });
  });

  it("times a transfer's days from the database's now on a backend whose clock is 10 minutes ahead", async () => {
    const member = await registerMember(backend.url);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    let order;
    try {
      order = (await createOrder(member, 'month', 30)).body;
      expect((await payOrder(member, order.order_no)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const job = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('job')
        .select(['run_after', 'created_at'])
        .where('dedupe_key', 'like', `order.expire:${order.id}:%`)
        .executeTakeFirstOrThrow(),
    );
    // 3 days from the order's placing by the database's clock, which wrote its created_at: not 10
    // minutes more (the milliseconds between the database's readings are far below the minute).
    expect(Math.abs(Date.parse(job.run_after) - (Date.parse(order.created_at) + 3 * DAY_MS))).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(job.run_after) - Date.parse(job.created_at) - 3 * DAY_MS)).toBeLessThan(60_000);
  });

  it('gives an order submitted as a transfer pay.manual_timeout days from its creation, then closes it', async () => {
    const member = await registerMember(backend.url);
    const order = (await createOrder(member, 'month', 30)).body;
    expect(Date.parse(order.expires_at) - Date.parse(order.created_at)).toBe(30 * 60_000);
    const paid = await payOrder(member, order.order_no);
    expect(paid.status, paid.text).toBe(200);
    const deadline = new Date(Date.parse(order.created_at) + 3 * DAY_MS).toISOString();
    expect(new Date(paid.body.order.expires_at).toISOString()).toBe(deadline);
    expect(new Date((await getOrder(member.token, { order_no: order.order_no })).body.expires_at).toISOString()).toBe(
      deadline,
    );

    // The minutes' job comes and goes: the order stays open.
    await expireNow(backend.dataDir, order.id);
    await waitForJob(backend.dataDir, `order.expire:${order.id}`);
    expect((await getOrder(member.token, { order_no: order.order_no })).body.status ?? 0).toBe(0);
    // Paying by transfer again gives no more time.
    expect(new Date((await payOrder(member, order.order_no)).body.order.expires_at).toISOString()).toBe(deadline);

    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('job')
        .set({ run_after: new Date(Date.now() - 1000).toISOString() })
        .where('kind', '=', 'order.expire')
        .where('dedupe_key', '=', `order.expire:${order.id}:${deadline}`)
        .execute(),
    );
    expect(await waitForStatus(backend.url, member.token, order.order_no, 2)).toMatchObject({
      close_reason: 'timeout',
    });
  });

  /** A month's order submitted as a transfer whose pay.manual_timeout days ran out. */
  async function timedOutTransfer(member: Member) {
    const order = (await createOrder(member, 'month', 30)).body;
    const deadline = new Date((await payOrder(member, order.order_no)).body.order.expires_at).toISOString();
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('job')
        .set({ run_after: new Date(Date.now() - 1000).toISOString() })
        .where('dedupe_key', '=', `order.expire:${order.id}:${deadline}`)
        .execute(),
    );
    expect(await waitForStatus(backend.url, member.token, order.order_no, 2)).toMatchObject({
      provider: 'manual',
      close_reason: 'timeout',
    });
    return order;
  }

  it('an admin confirms a transfer closed by its timeout, once: the order is paid and grants its days', async () => {
    const member = await registerMember(backend.url);
    const order = await timedOutTransfer(member);
    const before = Date.now();
    const [first, second] = await Promise.all([confirm(order.id, '转账已到账'), confirm(order.id, '转账已到账')]);
    const statuses = [first.status, second.status].sort();
    expect(statuses, `${first.text} ${second.text}`).toEqual([200, 400]);
    const confirmed = first.status === 200 ? first : second;
    expect(confirmed.body).toMatchObject({
      status: 1,
      provider: 'manual',
      paid_amount: 3000,
      close_reason: 'timeout',
      remark: expect.stringContaining('确认收款：转账已到账'),
    });
    const vip = (await myVip(member)).body;
    expect(vip).toMatchObject({ active: true, plan_code: 'month' });
    expect(Date.parse(vip.end_at)).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(Date.parse(vip.end_at)).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
    const log = await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: member.user.id } });
    expect(log.body.log).toHaveLength(1);
    const again = await confirm(order.id);
    expect(again.body).toMatchObject({
      code: 9,
      message: '只有待支付的订单、关闭后到账的订单或超时关闭的转账订单可以确认收款',
    });
    expect((await myVip(member)).body.end_at).toBe(vip.end_at);
  });

  it('closes a transfer past its deadline as timed out, not replaced, when the member orders again before the job ran', async () => {
    const member = await registerMember(backend.url);
    const order = (await createOrder(member, 'month', 30)).body;
    expect((await payOrder(member, order.order_no)).status).toBe(200);
    // The days ran out a moment ago; the timeout job has not run yet.
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('orders')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', order.id)
        .execute(),
    );
    const next = (await createOrder(member, 'month', 30)).body;
    expect(next.order_no).not.toBe(order.order_no);
    expect((await getOrder(member.token, { order_no: order.order_no })).body).toMatchObject({
      status: 2,
      provider: 'manual',
      close_reason: 'timeout',
    });
    const confirmed = await confirm(order.id, '转账已到账');
    expect(confirmed.body, confirmed.text).toMatchObject({ status: 1, paid_amount: 3000 });
    expect((await myVip(member)).body).toMatchObject({ active: true, plan_code: 'month' });
  });

  it("refuses to confirm a transfer the member cancelled or an admin closed, or an online order's timeout", async () => {
    const member = await registerMember(backend.url);
    const cancelled = (await createOrder(member, 'month', 30)).body;
    await payOrder(member, cancelled.order_no);
    await api(backend.url, 'PUT', '/api/v1/order/cancel', {
      token: member.token,
      body: { order_no: cancelled.order_no },
    });
    const closed = (await createOrder(member, 'quarter', 80)).body;
    await payOrder(member, closed.order_no);
    const close = await backend.admin('PUT', '/api/v1/order/close', { body: { id: [closed.id], reason: '会员要求' } });
    expect(close.status, close.text).toBe(200);
    // An order never submitted as a transfer that times out waits for no transfer.
    const unpaid = (await createOrder(member, 'year', 298)).body;
    await expireNow(backend.dataDir, unpaid.id);
    await waitForStatus(backend.url, member.token, unpaid.order_no, 2);
    for (const order of [cancelled, closed, unpaid]) {
      const refused = await confirm(order.id);
      expect(refused.body, order.order_no).toMatchObject({
        code: 9,
        message: '只有待支付的订单、关闭后到账的订单或超时关闭的转账订单可以确认收款',
      });
    }
    expect((await myVip(member)).body.active).toBeUndefined();
  });

  it("takes the transfer's days from pay.manual_timeout", async () => {
    await backend.setConfig({ 'pay.manual_timeout': '7' });
    try {
      const member = await registerMember(backend.url);
      const order = (await createOrder(member, 'month', 30)).body;
      const paid = await payOrder(member, order.order_no);
      expect(Date.parse(paid.body.order.expires_at) - Date.parse(order.created_at)).toBe(7 * DAY_MS);
    } finally {
      await backend.setConfig({ 'pay.manual_timeout': '3' });
    }
  });

  it('leaves a paid order alone when its timeout comes', async () => {
    const member = await registerMember(backend.url);
    const order = await paidMonth(member);
    await expireNow(backend.dataDir, order.id);
    // The expiry job has run (and found the order paid).
    await expect
      .poll(
        async () =>
          (
            await withDatabase(backend.dataDir, (db) =>
              db
                .selectFrom('job')
                .select('state')
                .where('dedupe_key', '=', `order.expire:${order.id}`)
                .executeTakeFirstOrThrow(),
            )
          ).state,
        { timeout: 10_000 },
      )
      .toBe('done');
    expect((await getOrder(member.token, { order_no: order.order_no })).body.status).toBe(1);
  });

  it('survives a restart: a timeout due while the backend was down closes the order at the next start', async () => {
    const first = await startBackend({ env: MANUAL_ENV });
    let second: Awaited<ReturnType<typeof startBackend>> | undefined;
    try {
      const member = await registerMember(first.url);
      const order = (
        await api(first.url, 'POST', '/api/v1/order', { token: member.token, body: { plan_code: 'month', price: 30 } })
      ).body;
      await first.close({ keepData: true });
      await expireNow(first.dataDir, order.id);
      second = await startBackend({ env: MANUAL_ENV, dataDir: first.dataDir });
      const closed = await waitForStatus(second.url, member.token, order.order_no, 2);
      expect(closed.close_reason).toBe('timeout');
    } finally {
      await (second ?? first).close();
    }
  });
});

describe('UserVipAPI for admins', () => {
  it('grants, extends and revokes with a reason kept; lists members by state and name', async () => {
    const member = await registerMember(backend.url);
    const grant = await backend.admin('POST', '/api/v1/vip/grant', {
      body: { user_id: [member.user.id], days: 7, reason: '活动赠送' },
    });
    expect(grant.status, grant.text).toBe(200);
    const granted = (await myVip(member)).body;
    expect(granted.active).toBe(true);
    await backend.admin('POST', '/api/v1/vip/grant', { body: { user_id: [member.user.id], days: 3, reason: '补偿' } });
    expect(Date.parse((await myVip(member)).body.end_at)).toBe(Date.parse(granted.end_at) + 3 * DAY_MS);

    const active = await backend.admin('GET', '/api/v1/vip/list', { query: { wd: member.username, status: 1 } });
    expect(active.body.user_vip).toEqual([
      expect.objectContaining({ user_id: member.user.id, username: member.username, active: true }),
    ]);

    const revoke = await backend.admin('PUT', '/api/v1/vip/revoke', {
      body: { user_id: [member.user.id], reason: '违规使用' },
    });
    expect(revoke.status, revoke.text).toBe(200);
    expect((await myVip(member)).body.active).toBeUndefined();
    const expired = await backend.admin('GET', '/api/v1/vip/list', { query: { user_id: member.user.id, status: 2 } });
    expect(expired.body.total).toBe(1);
    expect(
      (await backend.admin('GET', '/api/v1/vip/list', { query: { user_id: member.user.id, status: 1 } })).body.total,
    ).toBeUndefined();

    const log = await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: member.user.id } });
    expect(
      log.body.log.map((l: { action: number; reason: string; operator: string }) => [l.action, l.reason, l.operator]),
    ).toEqual([
      [3, '违规使用', 'admin'],
      [2, '补偿', 'admin'],
      [2, '活动赠送', 'admin'],
    ]);
  });

  it("tells the member of a grant, an extension and a revoke, without the admins' reason", async () => {
    const member = await registerMember(backend.url);
    const messages = async () =>
      (
        await api(backend.url, 'GET', '/api/v1/message/list', { token: member.token, query: { size: 10 } })
      ).body.message.map((m: { type: number; title: string; content: string; target_id?: number }) => [
        m.type,
        m.title,
        m.content,
        m.target_id ?? 0,
      ]);
    const endOf = async () => formatDate((await myVip(member)).body.end_at, SHORT_DATE_FORMAT);
    await backend.admin('POST', '/api/v1/vip/grant', {
      body: { user_id: [member.user.id], days: 7, reason: '活动赠送' },
    });
    const firstEnd = await endOf();
    await backend.admin('POST', '/api/v1/vip/grant', { body: { user_id: [member.user.id], days: 3, reason: '补偿' } });
    const secondEnd = await endOf();
    await backend.admin('PUT', '/api/v1/vip/revoke', { body: { user_id: [member.user.id], reason: '违规使用' } });
    // A revoke with nothing left to end tells nothing more.
    await backend.admin('PUT', '/api/v1/vip/revoke', { body: { user_id: [member.user.id], reason: '违规使用' } });
    expect(await messages()).toEqual([
      [10, '会员已取消', '管理员取消了您的 VIP 会员，会员权益已结束。如有疑问，请联系网站管理员。', 0],
      [9, '会员已延长', `管理员为您延长了 VIP 会员 3 天，会员有效期至 ${secondEnd}。`, 0],
      [9, '会员已开通', `管理员为您开通了 VIP 会员 7 天，会员有效期至 ${firstEnd}。`, 0],
    ]);
  });

  it.each([
    [{ user_id: [], days: 7, reason: 'x' }, '请选择用户'],
    [{ user_id: [2], days: 0, reason: 'x' }, '天数须为 1 到 36500 的整数'],
    [{ user_id: [2], days: 7, reason: '  ' }, '原因不能为空'],
    [{ user_id: [987654], days: 7, reason: 'x' }, '用户不存在'],
  ])('refuses the grant %j', async (body, message) => {
    const res = await backend.admin('POST', '/api/v1/vip/grant', { body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe("a VIP period's times, by the database's clock whatever this process's says", () => {
  const SKEW_MS = 10 * 60_000;
  const databaseMs = async () => (await withDatabase(backend.dataDir, (db) => databaseNow(db))).getTime();
  /** Makes the member's period end `ms` after the database's now (before it when negative); returns the end. */
  async function endIn(member: Member, ms: number): Promise<number> {
    const end = (await databaseMs()) + ms;
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('user_vip')
        .set({ end_at: new Date(end).toISOString() })
        .where('user_id', '=', member.user.id)
        .execute(),
    );
    return end;
  }
  const grant = (member: Member, days: number) =>
    backend.admin('POST', '/api/v1/vip/grant', { body: { user_id: [member.user.id], days, reason: '活动赠送' } });
  const listed = async (member: Member, status: number) =>
    (await backend.admin('GET', '/api/v1/vip/list', { query: { user_id: member.user.id, status } })).body.total ?? 0;
  const benefitsOf = (member: Member) =>
    withDatabase(backend.dataDir, async (db) => vipBenefits(db, await new ConfigStore(db).snapshot(), member.user.id));

  it("starts a paid or granted period and dates a payment at the database's now, and extends a period that runs by its clock", async () => {
    const buyer = await registerMember(backend.url);
    const member = await registerMember(backend.url);
    const order = (await createOrder(buyer, 'month', 30)).body;
    const before = await databaseMs();
    await withClockOff(SKEW_MS, async () => {
      expect((await confirm(order.id)).status).toBe(200);
      expect((await grant(member, 7)).status).toBe(200);
    });
    const after = await databaseMs();
    for (const [who, days] of [
      [buyer, 30],
      [member, 7],
    ] as const) {
      const vip = (await myVip(who)).body;
      // Not 10 minutes on: the statements between the readings are far below that.
      expect(Date.parse(vip.start_at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(vip.start_at)).toBeLessThanOrEqual(after);
      expect(Date.parse(vip.end_at) - Date.parse(vip.start_at)).toBe(days * DAY_MS);
    }
    const log = await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: member.user.id } });
    expect(Date.parse(log.body.log[0].created_at)).toBeLessThanOrEqual(after);
    // Confirmed without a provider's time: paid at the database's now too, not 10 minutes on.
    const paidAt = Date.parse((await getOrder(buyer.token, { order_no: order.order_no })).body.paid_at);
    expect(paidAt).toBeGreaterThanOrEqual(before);
    expect(paidAt).toBeLessThanOrEqual(after);

    // Ending in 5 minutes by the database's clock: still running, though this clock says it ended.
    const start = (await myVip(member)).body.start_at;
    const end = await endIn(member, 5 * 60_000);
    await withClockOff(SKEW_MS, async () => expect((await grant(member, 3)).status).toBe(200));
    // Compared as times: the API answers 12:37:31.440 as 12:37:31.44 (Go's RFC3339Nano, wire.test.ts).
    const extended = (await myVip(member)).body;
    expect(extended.start_at).toBe(start);
    expect(Date.parse(extended.end_at)).toBe(end + 3 * DAY_MS);
    const told = await api(backend.url, 'GET', '/api/v1/message/list', { token: member.token, query: { size: 1 } });
    expect(told.body.message[0].title).toBe('会员已延长');
  });

  it("keeps a period running until the database's clock reaches its end, and ends it at the database's now", async () => {
    const member = await registerMember(backend.url);
    expect((await grant(member, 7)).status).toBe(200);
    await endIn(member, 5 * 60_000);
    await withClockOff(SKEW_MS, async () => {
      expect((await myVip(member)).body.active).toBe(true);
      expect((await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.is_vip).toBe(true);
      expect(await listed(member, 1)).toBe(1);
      expect((await benefitsOf(member)).active).toBe(true);
      // Revoked at the database's now: not refused as already over by this clock.
      const revoke = await backend.admin('PUT', '/api/v1/vip/revoke', {
        body: { user_id: [member.user.id], reason: '违规使用' },
      });
      expect(revoke.status, revoke.text).toBe(200);
    });
    const ended = Date.parse((await myVip(member)).body.end_at);
    expect(ended).toBeLessThanOrEqual(await databaseMs());
    expect((await myVip(member)).body.active).toBeUndefined();

    // Ended 5 minutes ago by the database's clock: over, though a clock 10 minutes behind says it runs.
    await endIn(member, -5 * 60_000);
    await withClockOff(-SKEW_MS, async () => {
      expect((await myVip(member)).body.active).toBeUndefined();
      expect((await api(backend.url, 'GET', '/api/v1/user', { token: member.token })).body.is_vip).toBeUndefined();
      expect(await listed(member, 1)).toBe(0);
      expect(await listed(member, 2)).toBe(1);
      expect((await benefitsOf(member)).active).toBe(false);
    });
  });

  it("takes back a refunded order's days up to the database's now, not this clock's", async () => {
    const lastMessage = async (member: Member) =>
      (await api(backend.url, 'GET', '/api/v1/message/list', { token: member.token, query: { size: 1 } })).body
        .message[0].content as string;
    for (const off of [SKEW_MS, -SKEW_MS]) {
      const member = await registerMember(backend.url);
      const order = await paidMonth(member);
      await withClockOff(off, async () => {
        const refund = await backend.admin('PUT', '/api/v1/order/refund', { body: { id: order.id, reason: '退款' } });
        expect(refund.status, refund.text).toBe(200);
      });
      // The period ends at the refund (the database's now), not 10 minutes later, and the member
      // is told it has ended, not that it runs until today.
      expect(Date.parse((await myVip(member)).body.end_at)).toBeLessThanOrEqual(await databaseMs());
      expect((await myVip(member)).body.active).toBeUndefined();
      expect(await lastMessage(member)).toMatch(/VIP 会员已结束。$/);
    }
  });
});

describe('the latest end of a period (9999-12-31)', () => {
  const LAST = Date.parse('9999-12-31T00:00:00.000Z');
  const grant = (member: Member, days: number) =>
    backend.admin('POST', '/api/v1/vip/grant', { body: { user_id: [member.user.id], days, reason: '终身会员' } });

  it('refuses a grant that would end past it, keeping the end an RFC 3339 date the lists understand', async () => {
    const member = await registerMember(backend.url);
    // An order placed now, paid once grants have filled the period (below).
    const order = (await createOrder(member, 'month', 30)).body;
    let refused;
    for (let i = 0; i < 90 && !refused; i++) {
      const res = await grant(member, 36500);
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status).toBe(400);
    const message = refused!.body.message as string;
    expect(message).toMatch(
      new RegExp(`^用户“${member.username}”的会员到期时间不能晚于 9999-12-31，最多还能延长 (\\d+) 天$`),
    );
    const daysLeft = Number(/(\d+) 天$/.exec(message)![1]);
    expect(daysLeft).toBeLessThan(36500);
    const vip = (await myVip(member)).body;
    // RFC 3339 as Go writes it: the fraction's trailing zeros dropped (none when the milliseconds are 0).
    expect(vip.end_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/);
    expect(LAST - Date.parse(vip.end_at)).toBeGreaterThanOrEqual(daysLeft * DAY_MS);

    // What is left can be granted, not a day more.
    expect((await grant(member, daysLeft)).status).toBe(daysLeft > 0 ? 200 : 400);
    const more = await grant(member, 1);
    expect(more.status).toBe(400);
    expect(more.body.message).toBe(`用户“${member.username}”的会员到期时间不能晚于 9999-12-31，最多还能延长 0 天`);
    const end = (await myVip(member)).body.end_at as string;
    expect(end.startsWith('9999-12-')).toBe(true);
    const active = await backend.admin('GET', '/api/v1/vip/list', { query: { user_id: member.user.id, status: 1 } });
    expect(active.body.user_vip).toEqual([expect.objectContaining({ user_id: member.user.id, end_at: end })]);

    // Buying more is refused before an order is made; an order placed before is paid, the period ending at the limit.
    const buy = await createOrder(member, 'quarter', 80);
    expect(buy.status).toBe(400);
    expect(buy.body.message).toBe('会员到期时间不能晚于 9999-12-31，最多还能延长 0 天');
    const paid = await confirm(order.id);
    expect(paid.status, paid.text).toBe(200);
    const after = (await myVip(member)).body;
    expect(Date.parse(after.end_at)).toBeLessThanOrEqual(LAST);
    expect(after.end_at).toMatch(/^9999-12-/);
  });
});

describe('OrderAPI for admins', () => {
  it('lists orders with filters (state, provider, buyer, dates, number) and shows their notifications', async () => {
    const member = await registerMember(backend.url);
    const paid = await paidMonth(member);
    const pending = (await createOrder(member, 'quarter', 80)).body;
    const byBuyer = await backend.admin('GET', '/api/v1/order/list', { query: { user_id: member.user.id } });
    expect(byBuyer.body.order.map((o: { id: number }) => o.id)).toEqual([pending.id, paid.id]);
    const paidOnly = await backend.admin('GET', '/api/v1/order/list', {
      query: { user_id: member.user.id, status: 1, provider: 'manual' },
    });
    expect(paidOnly.body.order.map((o: { id: number }) => o.id)).toEqual([paid.id]);
    expect(paidOnly.body.order[0].remark).toContain('确认收款：已收到转账');
    // The admin's note says when in the site's time (as its times show) and who, by name.
    const beijing = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', dateStyle: 'short' }).format(
      new Date(),
    );
    expect(paidOnly.body.order[0].remark).toMatch(
      new RegExp(`^\\[${beijing} \\d{2}:\\d{2} 管理员 admin\\] 确认收款：`),
    );
    const byNumber = await backend.admin('GET', '/api/v1/order/list', { query: { wd: pending.order_no } });
    expect(byNumber.body.total).toBe(1);
    const future = await backend.admin('GET', '/api/v1/order/list', {
      query: { user_id: member.user.id, created_from: new Date(Date.now() + DAY_MS).toISOString() },
    });
    expect(future.body.total).toBeUndefined();
    const detail = await getOrder(backend.adminToken, { id: paid.id });
    expect(detail.body).toMatchObject({ order_no: paid.order_no, remark: expect.stringContaining('已收到转账') });
    const notes = await backend.admin('GET', '/api/v1/order/notification', { query: { order_no: paid.order_no } });
    expect(notes.body.notification).toEqual([
      expect.objectContaining({
        provider: 'manual',
        outcome: 'paid',
        amount: 3000,
        reason: '管理员确认收款：已收到转账',
      }),
    ]);
  });

  it('closes pending orders with a reason, and refuses to close others', async () => {
    const member = await registerMember(backend.url);
    const order = (await createOrder(member, 'month', 30)).body;
    expect(
      (await backend.admin('PUT', '/api/v1/order/close', { body: { id: [order.id], reason: '' } })).body.message,
    ).toBe('原因不能为空');
    const closed = await backend.admin('PUT', '/api/v1/order/close', { body: { id: [order.id], reason: '重复下单' } });
    expect(closed.status, closed.text).toBe(200);
    expect((await getOrder(member.token, { order_no: order.order_no })).body).toMatchObject({
      status: 2,
      close_reason: 'admin',
    });
    const again = await backend.admin('PUT', '/api/v1/order/close', { body: { id: [order.id], reason: '重复下单' } });
    expect(again.body.message).toBe(`订单 ${order.order_no} 已关闭，只能关闭待支付的订单`);
  });

  it('closes the pending orders of a batch and names the ones that stopped being pending meanwhile', async () => {
    // Three members' orders (a member holds one pending order).
    const [member, second, third] = await Promise.all([1, 2, 3].map(() => registerMember(backend.url)));
    const first = (await createOrder(member!, 'month', 30)).body;
    const gone = (await createOrder(second!, 'quarter', 80)).body;
    const last = (await createOrder(third!, 'year', 298)).body;
    // Closed by another admin after this one's list was read.
    await backend.admin('PUT', '/api/v1/order/close', { body: { id: [gone.id], reason: '重复下单' } });
    const batch = await backend.admin('PUT', '/api/v1/order/close', {
      body: { id: [first.id, gone.id, last.id], reason: '批量清理' },
    });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body.closed).toEqual([first.id, last.id]);
    expect(batch.body.skipped).toHaveLength(1);
    expect(batch.body.skipped[0]).toMatchObject({ id: gone.id, order_no: gone.order_no, status: 2 });
    for (const order of [first, last])
      expect((await backend.admin('GET', '/api/v1/order', { query: { id: order.id } })).body).toMatchObject({
        status: 2,
        close_reason: 'admin',
      });
  });
});

describe("vipBenefits (the document module's seam)", () => {
  it("gives the vip config's benefits to an active member and nothing to others", async () => {
    const member = await registerMember(backend.url);
    const other = await registerMember(backend.url);
    await paidMonth(member);
    await withDatabase(backend.dataDir, async (db) => {
      const cfg = await new ConfigStore(db).snapshot();
      const benefits = await vipBenefits(db, cfg, member.user.id);
      expect(benefits).toEqual({
        active: true,
        until: expect.any(String),
        freeDownload: true,
        readAllPages: true,
        dailyDownloadQuota: 50,
      });
      expect(Date.parse(benefits.until!)).toBe(Date.parse((await myVip(member)).body.end_at));
      expect(await vipBenefits(db, cfg, other.user.id)).toEqual({
        active: false,
        until: null,
        freeDownload: false,
        readAllPages: false,
        dailyDownloadQuota: 0,
      });
      expect(await vipBenefits(db, cfg, 0)).toMatchObject({ active: false });
    });
  });
});
