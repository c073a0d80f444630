import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseNow } from '../../backend/db/dialect';
import { UNVERIFIED_NOTIFICATIONS_KEPT, UNVERIFIED_RAW_KEPT } from '../../backend/modules/payment/store';
import { api, login, registerMember, startBackend, useBackend, withDatabase, type Member } from '../helpers/backend';
import { startPaymentProvider, type PaymentProviderStub } from '../helpers/payment-provider';
import { signedInAgo, withClockOff } from '../helpers/clock';

// Alipay and WeChat Pay v3 end to end, offline (docs/api.md §11): the checkout's pay call
// against a stand-in provider that checks our signatures, and notifications signed by the
// harness exactly as the providers sign them, posted to the public notify routes.

const DAY_MS = 24 * 3600_000;
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

let stub: PaymentProviderStub;
beforeAll(async () => {
  stub = await startPaymentProvider();
});
afterAll(() => stub?.close());
const backend = useBackend({ env: () => ({ ...stub.settingsEnv, ...stub.env }) });

interface PlacedOrder {
  id: number;
  order_no: string;
  amount: number;
}

async function placeOrder(member: Member, plan = 'month', price = 30): Promise<PlacedOrder> {
  const res = await api(backend.url, 'POST', '/api/v1/order', {
    token: member.token,
    body: { plan_code: plan, price },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const pay = (member: Member, order_no: string, provider: string, device = 'pc') =>
  api(backend.url, 'POST', '/api/v1/order/pay', { token: member.token, body: { order_no, provider, device } });
const orderOf = (member: Member, order_no: string) =>
  api(backend.url, 'GET', '/api/v1/order', { token: member.token, query: { order_no } });
const vipOf = async (member: Member) => (await api(backend.url, 'GET', '/api/v1/vip', { token: member.token })).body;
const notificationsOf = async (order_no: string) =>
  (await backend.admin('GET', '/api/v1/order/notification', { query: { order_no } })).body.notification ?? [];

const postAlipay = (body: string) =>
  api(backend.url, 'POST', '/api/v1/pay/notify/alipay', {
    rawBody: body,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
  });
const postWechat = (notification: { headers: Record<string, string>; body: string }) =>
  api(backend.url, 'POST', '/api/v1/pay/notify/wechat', { rawBody: notification.body, headers: notification.headers });

describe('Alipay', () => {
  it('pays on a computer through a signed page-pay URL carrying the order, its amount, deadline and our notify and return addresses', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member, 'quarter', 80);
    const res = await pay(member, order.order_no, 'alipay');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: 'alipay', order: { provider: 'alipay' } });
    const url = new URL(res.body.pay_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${stub.url}/alipay/gateway.do`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      method: 'alipay.trade.page.pay',
      app_id: stub.alipay.appId,
      sign_type: 'RSA2',
      charset: 'utf-8',
      notify_url: 'https://docs.example.com/api/v1/pay/notify/alipay',
      return_url: `https://docs.example.com/vip/checkout?order_no=${order.order_no}`,
    });
    const content = Object.keys(params)
      .filter((k) => k !== 'sign')
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join('&');
    expect(
      crypto.verify('sha256', Buffer.from(content), stub.alipay.appKeys.publicKey, Buffer.from(params.sign!, 'base64')),
    ).toBe(true);
    const biz = JSON.parse(params.biz_content!);
    expect(biz).toMatchObject({
      out_trade_no: order.order_no,
      total_amount: '80.00',
      product_code: 'FAST_INSTANT_TRADE_PAY',
      subject: '魔豆文库 季度会员',
    });
    expect(biz.time_expire).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('starts no trade while the site has neither 网站域名 nor a notify address: the result could never reach it', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const before = await notificationsOf(order.order_no);
    await backend.setConfig({ 'system.domain': '', 'pay.notify_url': '' });
    try {
      for (const provider of ['alipay', 'wechat']) {
        const res = await pay(member, order.order_no, provider);
        expect(res.status).toBe(503);
        expect(res.body.message).toBe(`${provider === 'alipay' ? '支付宝' : '微信支付'}配置有误，请联系管理员`);
      }
      expect((await orderOf(member, order.order_no)).body.provider ?? '').toBe('');
    } finally {
      await backend.setConfig({ 'system.domain': 'https://docs.example.com' });
    }
    expect(await notificationsOf(order.order_no)).toEqual(before);
    expect((await pay(member, order.order_no, 'alipay')).status).toBe(200);
  });

  it('pays on a phone through wap pay', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const res = await pay(member, order.order_no, 'alipay', 'mobile');
    const params = new URL(res.body.pay_url).searchParams;
    expect(params.get('method')).toBe('alipay.trade.wap.pay');
    expect(JSON.parse(params.get('biz_content')!)).toMatchObject({
      product_code: 'QUICK_WAP_WAY',
      total_amount: '30.00',
    });
  });

  it('refuses a device other than pc or mobile, and takes a missing one for a computer', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    for (const device of ['toaster', 'Mobile', ' pc']) {
      const res = await pay(member, order.order_no, 'alipay', device);
      expect([res.status, res.body.message]).toEqual([400, '设备类型无效（参数 device），只能是 pc 或 mobile']);
    }
    expect((await orderOf(member, order.order_no)).body.provider ?? '').toBe('');
    const res = await api(backend.url, 'POST', '/api/v1/order/pay', {
      token: member.token,
      body: { order_no: order.order_no, provider: 'alipay' },
    });
    expect(res.status, res.text).toBe(200);
    expect(new URL(res.body.pay_url).searchParams.get('method')).toBe('alipay.trade.page.pay');
  });

  it("a valid notification answers `success`, pays the order and makes the member VIP for the plan's days", async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'alipay');
    const before = Date.now();
    const res = await postAlipay(
      stub.alipay.notification(stub.alipay.paidParams(order.order_no, '30.00', '2024050122001400000000000001')),
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe('success');
    const paid = (await orderOf(member, order.order_no)).body;
    expect(paid).toMatchObject({
      status: 1,
      provider: 'alipay',
      trade_no: '2024050122001400000000000001',
      paid_amount: 3000,
    });
    const vip = await vipOf(member);
    expect(vip).toMatchObject({ active: true, plan_code: 'month' });
    expect(Date.parse(vip.end_at)).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
    const [kept] = await notificationsOf(order.order_no);
    expect(kept).toMatchObject({ provider: 'alipay', outcome: 'paid', amount: 3000, order_id: order.id });
    expect(kept.raw).toContain('trade_status=TRADE_SUCCESS');
  });

  it('the same notification twice, and five at once, grant once (all acknowledged)', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const body = stub.alipay.notification(stub.alipay.paidParams(order.order_no, '30.00'));
    expect((await postAlipay(body)).text).toBe('success');
    const end = (await vipOf(member)).end_at;
    expect((await postAlipay(body)).text).toBe('success');
    expect((await vipOf(member)).end_at).toBe(end);

    const other = await registerMember(backend.url);
    const second = await placeOrder(other);
    const burst = stub.alipay.notification(stub.alipay.paidParams(second.order_no, '30.00'));
    const answers = await Promise.all(Array.from({ length: 5 }, () => postAlipay(burst)));
    expect(answers.map((a) => a.text)).toEqual(Array(5).fill('success'));
    const log = await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: other.user.id } });
    expect(log.body.total).toBe(1);
    const outcomes = (await notificationsOf(second.order_no)).map((n: { outcome: string }) => n.outcome).sort();
    expect(outcomes).toEqual(['paid', 'repeated', 'repeated', 'repeated', 'repeated']);
  });

  it('keeps the newest 20 of the notifications of an order that changed nothing, per outcome: a replayed signed text fills nothing', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const waiting = stub.alipay.notification({
      ...stub.alipay.paidParams(order.order_no, '30.00'),
      trade_status: 'WAIT_BUYER_PAY',
    });
    const paid = stub.alipay.notification(stub.alipay.paidParams(order.order_no, '30.00'));
    for (let i = 0; i < 21; i++) expect((await postAlipay(waiting)).text).toBe('success');
    for (let i = 0; i < 22; i++) expect((await postAlipay(paid)).text).toBe('success');
    const kept = await backend.admin('GET', '/api/v1/order/notification', {
      query: { order_no: order.order_no, size: 100 },
    });
    const outcomes = kept.body.notification.map((n: { outcome: string }) => n.outcome);
    expect(kept.body.total).toBe(41);
    // newest first: the last 20 repeats, the payment, the last 20 of the unpaid trade's
    expect(outcomes).toEqual([...Array(20).fill('repeated'), 'paid', ...Array(20).fill('ignored')]);
    expect((await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: member.user.id } })).body.total).toBe(1);
  });

  it('ten notifications at once grant once, and a grant to the member meanwhile counts too', async () => {
    // A member holds one pending order (decision 107): the other extension at the same time is an admin's grant.
    const member = await registerMember(backend.url);
    const month = await placeOrder(member, 'month', 30);
    const body = stub.alipay.notification(stub.alipay.paidParams(month.order_no, '30.00'));
    const [granted, ...answers] = await Promise.all([
      backend.admin('POST', '/api/v1/vip/grant', { body: { user_id: [member.user.id], days: 90, reason: '活动赠送' } }),
      ...Array.from({ length: 10 }, () => postAlipay(body)),
    ]);
    expect(granted!.status, granted!.text).toBe(200);
    expect(answers.map((a) => a.text)).toEqual(Array(10).fill('success'));
    const log = await backend.admin('GET', '/api/v1/vip/log', { query: { user_id: member.user.id } });
    expect(log.body.total).toBe(2);
    const outcomes = (await notificationsOf(month.order_no)).map((n: { outcome: string }) => n.outcome).sort();
    expect(outcomes).toEqual(['paid', ...Array(9).fill('repeated')]);
    // 30 days and 90: neither extension overwrote the other.
    const vip = await vipOf(member);
    expect(Date.parse(vip.end_at) - Date.parse(vip.start_at)).toBe(120 * DAY_MS);
  });

  it.each([
    [
      'a tampered amount',
      (orderNo: string) =>
        stub.alipay
          .notification(stub.alipay.paidParams(orderNo, '30.00'))
          .replace('total_amount=30.00', 'total_amount=0.01'),
      '签名无效',
    ],
    [
      'a wrong amount, correctly signed',
      (orderNo: string) => stub.alipay.notification(stub.alipay.paidParams(orderNo, '0.01')),
      '金额不符：到账 0.01 元，订单 30.00 元',
    ],
    [
      'a bad signature',
      (orderNo: string) =>
        stub.alipay.notification(
          stub.alipay.paidParams(orderNo, '30.00'),
          crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
        ),
      '签名无效',
    ],
    [
      'another app id',
      (orderNo: string) =>
        stub.alipay.notification({ ...stub.alipay.paidParams(orderNo, '30.00'), app_id: '2021000000009999' }),
      'AppID 不匹配（2021000000009999）',
    ],
    [
      'no signature',
      (orderNo: string) => new URLSearchParams(stub.alipay.paidParams(orderNo, '30.00')).toString(),
      '缺少签名',
    ],
  ])(
    'refuses %s: `fail`, the order stays pending, the refusal is kept for the admin',
    async (_what, makeBody, reason) => {
      const member = await registerMember(backend.url);
      const order = await placeOrder(member);
      const res = await postAlipay(makeBody(order.order_no));
      expect(res.status).toBe(400);
      expect(res.text).toBe('fail');
      expect((await orderOf(member, order.order_no)).body.status).toBeUndefined();
      expect((await vipOf(member)).active).toBeUndefined();
      expect(await notificationsOf(order.order_no)).toEqual([expect.objectContaining({ outcome: 'refused', reason })]);
    },
  );

  it('refuses a notification for an unknown order and changes nothing', async () => {
    const res = await postAlipay(stub.alipay.notification(stub.alipay.paidParams('20990101000000123456', '30.00')));
    expect(res.text).toBe('fail');
    const kept = await notificationsOf('20990101000000123456');
    expect(kept).toEqual([expect.objectContaining({ outcome: 'refused', reason: '订单不存在' })]);
    expect(kept[0].order_id).toBeUndefined();
  });

  it('acknowledges a notification about an unpaid trade without paying', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const res = await postAlipay(
      stub.alipay.notification({ ...stub.alipay.paidParams(order.order_no, '30.00'), trade_status: 'WAIT_BUYER_PAY' }),
    );
    expect(res.text).toBe('success');
    expect((await orderOf(member, order.order_no)).body.status).toBeUndefined();
    expect(await notificationsOf(order.order_no)).toEqual([
      expect.objectContaining({ outcome: 'ignored', reason: '交易状态 WAIT_BUYER_PAY' }),
    ]);
  });

  it('keeps a payment that arrives after the order closed, for the admin to re-open (grants then) or refund', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'alipay');
    const cancelled = await api(backend.url, 'PUT', '/api/v1/order/cancel', {
      token: member.token,
      body: { order_no: order.order_no },
    });
    expect(cancelled.body.status).toBe(2);
    expect(
      stub.requests.some(
        (r) =>
          r.call === 'alipay.trade.close' &&
          (r.params.biz_content as { out_trade_no: string }).out_trade_no === order.order_no,
      ),
    ).toBe(true);
    const late = await postAlipay(
      stub.alipay.notification(stub.alipay.paidParams(order.order_no, '30.00', 'T-LATE-1')),
    );
    expect(late.text).toBe('success');
    expect((await orderOf(member, order.order_no)).body).toMatchObject({
      status: 2,
      late_paid: true,
      trade_no: 'T-LATE-1',
    });
    expect((await vipOf(member)).active).toBeUndefined();
    const reopened = await backend.admin('PUT', '/api/v1/order/confirm', {
      body: { id: order.id, reason: '会员已付款，重新开通' },
    });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body).toMatchObject({ status: 1, trade_no: 'T-LATE-1' });
    expect(reopened.body.late_paid).toBeUndefined();
    expect((await vipOf(member)).active).toBe(true);

    const other = await registerMember(backend.url);
    const second = await placeOrder(other);
    await api(backend.url, 'PUT', '/api/v1/order/cancel', { token: other.token, body: { order_no: second.order_no } });
    await postAlipay(stub.alipay.notification(stub.alipay.paidParams(second.order_no, '30.00')));
    const refunded = await backend.admin('PUT', '/api/v1/order/refund', {
      body: { id: second.id, reason: '已在支付宝退回' },
    });
    expect(refunded.body).toMatchObject({ status: 3 });
    expect((await vipOf(other)).active).toBeUndefined();
  });

  it('asks Alipay when the member comes back and no notification came (the active query)', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'alipay');
    expect((await orderOf(member, order.order_no)).body.status).toBeUndefined(); // trade unknown at Alipay yet
    stub.trades.set(order.order_no, { state: 'TRADE_SUCCESS', amount: 3000, tradeNo: 'T-QUERY-1' });
    // One query per order every 5 s: within them, the member's return asks nobody.
    const queries = () => stub.requests.filter((r) => r.call === 'alipay.trade.query').length;
    const asked = queries();
    expect((await orderOf(member, order.order_no)).body.status).toBeUndefined();
    expect(queries()).toBe(asked);
    // 5 s later (the last check moved back in the database rather than waited for), it asks.
    await withDatabase(backend.dataDir, (db) =>
      db
        .updateTable('orders')
        .set({ checked_at: new Date(Date.now() - 5100).toISOString() })
        .where('order_no', '=', order.order_no)
        .execute(),
    );
    const res = await orderOf(member, order.order_no);
    expect(queries()).toBe(asked + 1);
    expect(res.body).toMatchObject({ status: 1, trade_no: 'T-QUERY-1' });
    expect((await vipOf(member)).active).toBe(true);
    expect(stub.requests.filter((r) => r.call === 'alipay.trade.query').every((r) => r.signatureValid)).toBe(true);
    expect(await notificationsOf(order.order_no)).toEqual([
      expect.objectContaining({ outcome: 'paid', reason: '主动查询' }),
    ]);
  });

  it("asks Alipay once per 5 s by the database's clock, whichever machines the member's returns reach", async () => {
    const registered = await registerMember(backend.url);
    // Signed in a quarter hour ago: a session the machine 10 minutes behind takes too.
    const member = { ...registered, token: await signedInAgo(backend.dataDir, registered.token, 15 * 60_000) };
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'alipay');
    const queries = () => stub.requests.filter((r) => r.call === 'alipay.trade.query').length;
    await orderOf(member, order.order_no);
    const asked = queries();
    // Within the 5 s, through a machine 10 minutes ahead: nobody asked.
    await withClockOff(10 * 60_000, () => orderOf(member, order.order_no));
    expect(queries()).toBe(asked);
    // 5 s after the last check by the database's clock, through a machine 10 minutes behind: asked.
    await withDatabase(backend.dataDir, async (db) =>
      db
        .updateTable('orders')
        .set({ checked_at: new Date((await databaseNow(db)).getTime() - 5100).toISOString() })
        .where('order_no', '=', order.order_no)
        .execute(),
    );
    stub.trades.set(order.order_no, { state: 'TRADE_SUCCESS', amount: 3000, tradeNo: 'T-SKEW-1' });
    const res = await withClockOff(-10 * 60_000, () => orderOf(member, order.order_no));
    expect(queries()).toBe(asked + 1);
    expect(res.body).toMatchObject({ status: 1, trade_no: 'T-SKEW-1' });
  });

  it('a cancel that finds the trade paid at Alipay pays the order instead of closing it', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'alipay');
    stub.trades.set(order.order_no, { state: 'TRADE_SUCCESS', amount: 3000, tradeNo: 'T-RACE-1' });
    const res = await api(backend.url, 'PUT', '/api/v1/order/cancel', {
      token: member.token,
      body: { order_no: order.order_no },
    });
    expect(res.body).toMatchObject({ status: 1, trade_no: 'T-RACE-1' });
  });
});

describe('WeChat Pay v3', () => {
  it('Native pay gives a code_url; the request is signed with the merchant key and carries amount (fen), deadline and notify address', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member, 'year', 298);
    const res = await pay(member, order.order_no, 'wechat');
    expect(res.status, res.text).toBe(200);
    expect(res.body.code_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    const call = stub.requests.find(
      (r) => r.call === 'POST /v3/pay/transactions/native' && r.params.out_trade_no === order.order_no,
    )!;
    expect(call.signatureValid).toBe(true);
    expect(call.params).toMatchObject({
      appid: stub.wechat.appId,
      mchid: stub.wechat.mchId,
      description: '魔豆文库 年度会员',
      amount: { total: 29800, currency: 'CNY' },
      notify_url: 'https://docs.example.com/api/v1/pay/notify/wechat',
    });
    expect(call.params.time_expire).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
  });

  it("H5 pay on a phone sends the member to WeChat's page with our return address", async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const res = await pay(member, order.order_no, 'wechat', 'mobile');
    const url = new URL(res.body.pay_url);
    expect(url.searchParams.get('redirect_url')).toBe(
      `https://docs.example.com/vip/checkout?order_no=${order.order_no}`,
    );
    const call = stub.requests.find(
      (r) => r.call === 'POST /v3/pay/transactions/h5' && r.params.out_trade_no === order.order_no,
    )!;
    expect(call.params.scene_info).toMatchObject({ payer_client_ip: '127.0.0.1', h5_info: { type: 'Wap' } });
  });

  it('a valid notification (signed, resource encrypted with the API v3 key) answers 204 and makes the member VIP; a repeat and five at once grant once', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'wechat');
    const notification = stub.wechat.notification(stub.wechat.paidTransaction(order.order_no, 3000, '4200000001'));
    const res = await postWechat(notification);
    expect(res.status).toBe(204);
    expect((await orderOf(member, order.order_no)).body).toMatchObject({
      status: 1,
      provider: 'wechat',
      trade_no: '4200000001',
    });
    const end = (await vipOf(member)).end_at;
    expect((await postWechat(notification)).status).toBe(204);
    const burst = await Promise.all(
      Array.from({ length: 5 }, () =>
        postWechat(stub.wechat.notification(stub.wechat.paidTransaction(order.order_no, 3000, '4200000001'))),
      ),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(5).fill(204));
    expect((await vipOf(member)).end_at).toBe(end);
    const kept = await notificationsOf(order.order_no);
    expect(kept.map((n: { outcome: string }) => n.outcome).sort()).toEqual([
      'paid',
      'repeated',
      'repeated',
      'repeated',
      'repeated',
      'repeated',
      'repeated',
    ]);
    expect(kept.at(-1).raw).toContain('"out_trade_no"'); // the decrypted resource is kept
  });

  it.each([
    [
      'a wrong amount',
      (no: string) => stub.wechat.notification(stub.wechat.paidTransaction(no, 1)),
      '金额不符：到账 0.01 元，订单 30.00 元',
    ],
    [
      'a bad signature',
      (no: string) =>
        stub.wechat.notification(stub.wechat.paidTransaction(no, 3000), {
          signWith: crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
        }),
      '签名无效',
    ],
    [
      'a replay older than 5 minutes',
      (no: string) =>
        stub.wechat.notification(stub.wechat.paidTransaction(no, 3000), {
          timestamp: Math.floor(Date.now() / 1000) - 600,
        }),
      '签名时间戳超出 5 分钟',
    ],
    [
      'another key id',
      (no: string) => stub.wechat.notification(stub.wechat.paidTransaction(no, 3000), { serial: 'PUB_KEY_ID_OTHER' }),
      '公钥 ID 或证书序列号不匹配（PUB_KEY_ID_OTHER）',
    ],
    [
      'a resource encrypted with another key',
      (no: string) => stub.wechat.notification(stub.wechat.paidTransaction(no, 3000), { apiV3Key: 'x'.repeat(32) }),
      '无法用 APIv3 密钥解密通知',
    ],
    [
      'another merchant',
      (no: string) => stub.wechat.notification({ ...stub.wechat.paidTransaction(no, 3000), mchid: '1900000001' }),
      '商户号不匹配（1900000001）',
    ],
    [
      'another app id',
      (no: string) =>
        stub.wechat.notification({ ...stub.wechat.paidTransaction(no, 3000), appid: 'wx0000000000000000' }),
      'AppID 不匹配（wx0000000000000000）',
    ],
  ])('refuses %s with 400 FAIL and changes nothing', async (_what, makeNotification, reason) => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const res = await postWechat(makeNotification(order.order_no));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'FAIL', message: reason });
    expect((await orderOf(member, order.order_no)).body.status).toBeUndefined();
    expect((await vipOf(member)).active).toBeUndefined();
  });

  it('refuses a tampered body and an unknown order', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const genuine = stub.wechat.notification(stub.wechat.paidTransaction(order.order_no, 3000));
    const tampered = { ...genuine, body: genuine.body.replace('支付成功', '支付成功!') };
    expect((await postWechat(tampered)).body).toEqual({ code: 'FAIL', message: '签名无效' });
    const unknown = await postWechat(
      stub.wechat.notification(stub.wechat.paidTransaction('20990101000000654321', 3000)),
    );
    expect(unknown.body).toEqual({ code: 'FAIL', message: '订单不存在' });
    expect((await orderOf(member, order.order_no)).body.status).toBeUndefined();
  });

  it('acknowledges other events without paying', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    const res = await postWechat(
      stub.wechat.notification(
        { ...stub.wechat.paidTransaction(order.order_no, 3000), trade_state: 'CLOSED' },
        { eventType: 'TRANSACTION.CLOSED' },
      ),
    );
    expect(res.status).toBe(204);
    expect((await orderOf(member, order.order_no)).body.status).toBeUndefined();
  });

  it('asks WeChat Pay for the trade when the member polls and no notification came; answers are signature-checked', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'wechat');
    stub.trades.get(order.order_no)!.state = 'SUCCESS';
    const res = await orderOf(member, order.order_no);
    expect(res.body).toMatchObject({ status: 1, provider: 'wechat' });
    const query = stub.requests.find(
      (r) => r.call.startsWith('GET /v3/pay/transactions/out-trade-no/') && r.call.endsWith(order.order_no),
    )!;
    expect(query.signatureValid).toBe(true);
  });

  it('closes the trade at WeChat Pay when the order times out or is cancelled', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'wechat');
    await api(backend.url, 'PUT', '/api/v1/order/cancel', { token: member.token, body: { order_no: order.order_no } });
    expect(stub.trades.get(order.order_no)!.state).toBe('CLOSED');
  });
});

describe('WeChat Pay with a platform certificate instead of the 微信支付公钥', () => {
  it("verifies notifications with the certificate's key and checks its serial", async () => {
    const certificate = fs.readFileSync(path.join(FIXTURES, 'wechatpay-platform.crt'), 'utf8');
    const platformKey = crypto.createPrivateKey(fs.readFileSync(path.join(FIXTURES, 'wechatpay-platform.key'), 'utf8'));
    const serial = new crypto.X509Certificate(certificate).serialNumber.toUpperCase();
    const site = await startBackend({
      env: {
        ...stub.settingsEnv,
        ...stub.env,
        CONFIG_PAY_WECHAT_PUBLIC_KEY: certificate,
        CONFIG_PAY_WECHAT_PUBLIC_KEY_ID: '',
      },
    });
    try {
      const member = await registerMember(site.url);
      const order = (
        await api(site.url, 'POST', '/api/v1/order', { token: member.token, body: { plan_code: 'month', price: 30 } })
      ).body;
      const post = (n: { headers: Record<string, string>; body: string }) =>
        api(site.url, 'POST', '/api/v1/pay/notify/wechat', { rawBody: n.body, headers: n.headers });
      const wrongSerial = await post(
        stub.wechat.notification(stub.wechat.paidTransaction(order.order_no, 3000), {
          signWith: platformKey,
          serial: 'ABCDEF',
        }),
      );
      expect(wrongSerial.body.message).toBe('公钥 ID 或证书序列号不匹配（ABCDEF）');
      const ok = await post(
        stub.wechat.notification(stub.wechat.paidTransaction(order.order_no, 3000), { signWith: platformKey, serial }),
      );
      expect(ok.status).toBe(204);
      const paid = await api(site.url, 'GET', '/api/v1/order', {
        token: member.token,
        query: { order_no: order.order_no },
      });
      expect(paid.body.status).toBe(1);
    } finally {
      await site.close();
    }
  });
});

describe('notify routes', () => {
  it('answer 404 for an unknown provider and 503 while the provider is not configured (the provider retries)', async () => {
    expect((await api(backend.url, 'POST', '/api/v1/pay/notify/paypal', { rawBody: 'x' })).status).toBe(404);
    const bare = await startBackend();
    try {
      const res = await api(bare.url, 'POST', '/api/v1/pay/notify/alipay', {
        rawBody: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('支付宝未配置');
    } finally {
      await bare.close();
    }
  });

  it('log one line per notification while the provider is not configured, at info with the reason: anyone can post them', async () => {
    const lines: { level: number; msg: string; status?: number; reason?: string }[] = [];
    const bare = await startBackend({
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    });
    try {
      for (const [provider, headers, body, message] of [
        ['alipay', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=b', '支付宝未配置'],
        ['wechat', { 'content-type': 'application/json' }, '{}', '微信支付未配置'],
      ] as const) {
        for (let i = 0; i < 3; i++) {
          const from = lines.length;
          const res = await api(bare.url, 'POST', `/api/v1/pay/notify/${provider}`, { rawBody: body, headers });
          expect([res.status, res.body.message]).toEqual([503, message]);
          await new Promise((resolve) => setTimeout(resolve, 20));
          expect(lines.slice(from)).toEqual([
            expect.objectContaining({
              level: 30,
              msg: 'request',
              status: 503,
              reason: expect.stringContaining('payment notification for an unconfigured provider'),
            }),
          ]);
        }
      }
    } finally {
      await bare.close();
    }
  });

  it('keep the newest notifications refused before verification only, cut short, with one warn line: anyone can post them', async () => {
    const lines: { level: number; msg: string; status?: number; reason?: string; refused?: number }[] = [];
    const site = await startBackend({
      env: { ...stub.settingsEnv, ...stub.env },
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    });
    const post = (body: string) =>
      api(site.url, 'POST', '/api/v1/pay/notify/alipay', {
        rawBody: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      });
    try {
      // Genuine and refused for the order's sake: rare, and it matters; kept whatever follows.
      const genuineBody = stub.alipay.notification(stub.alipay.paidParams('20990101000000777001', '30.00'));
      expect((await post(genuineBody)).text).toBe('fail');
      // Forged: a signed notification with a long field added, which the signature does not cover.
      const forged = (i: number) =>
        `${stub.alipay.notification(stub.alipay.paidParams(`2099010100000${String(i).padStart(7, '0')}`, '30.00'))}&memo=${'x'.repeat(20_000)}`;
      const from = lines.length;
      const posted = UNVERIFIED_NOTIFICATIONS_KEPT + 20;
      for (let i = 0; i < posted; i++) {
        const res = await post(forged(i));
        expect([res.status, res.text]).toEqual([400, 'fail']);
      }
      const accessLines = () => lines.slice(from).filter((l) => l.msg === 'request');
      await expect.poll(() => accessLines().length).toBe(posted);
      expect(accessLines().every((l) => l.level === 30 && l.status === 400 && l.reason?.endsWith('签名无效'))).toBe(
        true,
      );
      expect(lines.slice(from).filter((l) => l.level >= 40)).toEqual([
        expect.objectContaining({ msg: 'payment notifications refused before verification', refused: 1 }),
      ]);

      const token = await login(site.url, 'admin', site.adminPassword);
      const refused: { order_no: string; reason: string; raw: string }[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await api(site.url, 'GET', '/api/v1/order/notification', {
          token,
          query: { outcome: 'refused', page, size: 100 },
        });
        expect(res.body.total).toBe(UNVERIFIED_NOTIFICATIONS_KEPT + 1);
        refused.push(...(res.body.notification ?? []));
      }
      expect(refused).toHaveLength(UNVERIFIED_NOTIFICATIONS_KEPT + 1);
      const genuine = refused.filter((n) => n.reason === '订单不存在');
      expect(genuine.map((n) => n.raw)).toEqual([genuineBody]);
      const unverified = refused.filter((n) => n.reason === '签名无效');
      // The newest, newest first.
      expect(unverified.map((n) => n.order_no)).toEqual(
        Array.from({ length: UNVERIFIED_NOTIFICATIONS_KEPT }, (_, k) => posted - 1 - k).map(
          (i) => `2099010100000${String(i).padStart(7, '0')}`,
        ),
      );
      for (const n of unverified) {
        expect(n.raw).toHaveLength(UNVERIFIED_RAW_KEPT + 1);
        expect(n.raw).toMatch(/&sign=.+&memo=x+…$/);
      }
    } finally {
      await site.close();
    }
  });

  it('PUT /api/v1/config refuses unreadable keys and a WeChat API v3 key of the wrong length', async () => {
    const list = await backend.admin('GET', '/api/v1/config/list', { query: { category: 'pay' } });
    const secret = list.body.config.find((c: { name: string }) => c.name === 'wechat_api_v3_key');
    expect(secret.value).toBe('******');
    const bad = (name: string, value: string) =>
      backend.setConfig({ [`pay.${name}`]: value }).then(
        () => 'ok',
        (e: Error) => e.message,
      );
    expect(await bad('alipay_private_key', 'not a key')).toContain('不是有效的 RSA 私钥');
    expect(await bad('wechat_public_key', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toContain(
      '不是有效的公钥或证书',
    );
    expect(await bad('wechat_api_v3_key', 'short')).toContain('应为 32 个字符');
    expect(await bad('order_timeout', '0')).toContain('必须在 1 到 1440 分钟之间');
    expect(await bad('order_timeout', '45')).toBe('ok');
  });
});

describe("the member's 消息 of an admin's decision on an order (docs/api.md §15)", () => {
  const messagesOf = async (member: Member) => {
    const res = await api(backend.url, 'GET', '/api/v1/message/list', { token: member.token });
    expect(res.status, res.text).toBe(200);
    return res.body.message ?? [];
  };
  const confirm = (id: number) => backend.admin('PUT', '/api/v1/order/confirm', { body: { id, reason: '已收到转账' } });
  const refund = (id: number) => backend.admin('PUT', '/api/v1/order/refund', { body: { id, reason: '会员申请退款' } });
  /** `YYYY-MM-DD HH:mm` in China time (UTC+8, no summer time). */
  const chinaTime = (iso: string) =>
    new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
  async function transferConfirmed(member: Member, plan = 'month', price = 30) {
    const order = await placeOrder(member, plan, price);
    expect((await pay(member, order.order_no, 'manual')).status).toBe(200);
    const confirmed = await confirm(order.id);
    expect(confirmed.status, confirmed.text).toBe(200);
    return order;
  }

  it('tells the member once that a transfer was confirmed: the plan and the new end of the VIP in China time', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    expect((await pay(member, order.order_no, 'manual')).status).toBe(200);
    expect(await messagesOf(member)).toEqual([]);
    // Two admins at once, then a third later: one confirmation, one message.
    const answers = await Promise.all([confirm(order.id), confirm(order.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect((await confirm(order.id)).status).toBe(400);
    const vip = await vipOf(member);
    expect(await messagesOf(member)).toEqual([
      expect.objectContaining({
        type: 5,
        title: '会员已开通',
        content: `您的订单 ${order.order_no}（月度会员）已确认收款，VIP 会员有效期至 ${chinaTime(vip.end_at)}。`,
      }),
    ]);
    const unread = await api(backend.url, 'GET', '/api/v1/message/unread', { token: member.token });
    expect(unread.body.count).toBe(1);
  });

  it('dates a confirmed transfer from the confirmation when the VIP running at the checkout has ended since', async () => {
    const DAY = 24 * 3600_000;
    const running = await registerMember(backend.url);
    const ended = await registerMember(backend.url);
    for (const member of [running, ended]) {
      const granted = await backend.admin('POST', '/api/v1/vip/grant', {
        body: { user_id: [member.user.id], days: member === running ? 10 : 1, reason: '测试' },
      });
      expect(granted.status, granted.text).toBe(200);
    }
    const runningEnd = Date.parse((await vipOf(running)).end_at);
    const orders = new Map<Member, PlacedOrder>();
    for (const member of [running, ended]) {
      const order = await placeOrder(member);
      expect((await pay(member, order.order_no, 'manual')).status).toBe(200);
      orders.set(member, order);
    }
    // Since the checkout, within the transfer's 3 days, one VIP has ended (by the database's clock,
    // which every VIP time reads); the other still runs.
    const databaseMs = async () => (await withDatabase(backend.dataDir, (db) => databaseNow(db))).getTime();
    const endedAt = new Date((await databaseMs()) - 60_000).toISOString();
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('user_vip').set({ end_at: endedAt }).where('user_id', '=', ended.user.id).execute(),
    );
    const before = await databaseMs();
    for (const member of [running, ended]) {
      const confirmed = await confirm(orders.get(member)!.id);
      expect(confirmed.status, confirmed.text).toBe(200);
    }
    const after = await databaseMs();
    const endOf = async (member: Member) => (await vipOf(member)).end_at;
    // The one still running is extended after its end; the one ended starts at the confirmation.
    expect(Date.parse(await endOf(running))).toBe(runningEnd + 30 * DAY);
    expect(Date.parse(await endOf(ended))).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(Date.parse(await endOf(ended))).toBeLessThanOrEqual(after + 30 * DAY);
    for (const member of [running, ended]) {
      const [message] = await messagesOf(member);
      expect(message).toMatchObject({
        type: 5,
        content: `您的订单 ${orders.get(member)!.order_no}（月度会员）已确认收款，VIP 会员有效期至 ${chinaTime(await endOf(member))}。`,
      });
    }
  });

  it('tells the member once of each refund: the amount, the days taken back and where the VIP ends now', async () => {
    const member = await registerMember(backend.url);
    const month = await transferConfirmed(member);
    const quarter = await transferConfirmed(member, 'quarter', 80);
    const answers = await Promise.all([refund(month.id), refund(month.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect((await refund(month.id)).status).toBe(400);
    const vip = await vipOf(member);
    expect(vip.active).toBe(true);
    const [refunded, ...confirmed] = await messagesOf(member);
    expect(confirmed.map((m: { type: number }) => m.type)).toEqual([5, 5]);
    expect(refunded).toMatchObject({
      type: 6,
      title: '订单已退款',
      content: `您的订单 ${month.order_no}（月度会员）已退款 30.00 元，收回 VIP 会员 30 天，会员有效期至 ${chinaTime(vip.end_at)}。`,
    });

    expect((await refund(quarter.id)).status).toBe(200);
    expect((await vipOf(member)).active).toBeUndefined();
    const [last] = await messagesOf(member);
    expect(last).toMatchObject({
      type: 6,
      content: `您的订单 ${quarter.order_no}（季度会员）已退款 80.00 元，收回 VIP 会员 90 天，VIP 会员已结束。`,
    });
    expect(await messagesOf(member)).toHaveLength(4);
  });

  it('says what a refund took back when it took nothing: a payment after the order closed, a VIP revoked before', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    await pay(member, order.order_no, 'alipay');
    await api(backend.url, 'PUT', '/api/v1/order/cancel', { token: member.token, body: { order_no: order.order_no } });
    await postAlipay(stub.alipay.notification(stub.alipay.paidParams(order.order_no, '30.00', 'T-LATE-MSG')));
    expect((await refund(order.id)).status).toBe(200);
    expect(await messagesOf(member)).toEqual([
      expect.objectContaining({
        type: 6,
        content: `您的订单 ${order.order_no}（月度会员）已退款 30.00 元，这笔付款没有开通 VIP 会员，会员期限不变。`,
      }),
    ]);

    const revokedMember = await registerMember(backend.url);
    const paid = await transferConfirmed(revokedMember);
    const revoked = await backend.admin('PUT', '/api/v1/vip/revoke', {
      body: { user_id: [revokedMember.user.id], reason: '违规' },
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await refund(paid.id)).status).toBe(200);
    expect((await messagesOf(revokedMember))[0]).toMatchObject({
      type: 6,
      content: `您的订单 ${paid.order_no}（月度会员）已退款 30.00 元，没有可收回的 VIP 会员天数，VIP 会员已结束。`,
    });
  });

  it('confirms and refunds the order of a buyer whose account was deleted, telling nobody', async () => {
    const member = await registerMember(backend.url);
    const order = await placeOrder(member);
    expect((await pay(member, order.order_no, 'manual')).status).toBe(200);
    const deleted = await api(backend.url, 'DELETE', '/api/v1/user', {
      token: backend.adminToken,
      query: { id: member.user.id, password: backend.adminPassword },
    });
    expect(deleted.status, deleted.text).toBe(200);
    const confirmed = await confirm(order.id);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 1, user_id: member.user.id });
    const refunded = await refund(order.id);
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.status).toBe(3);
    const told = await withDatabase(backend.dataDir, (db) =>
      db.selectFrom('message').select('id').where('user_id', '=', member.user.id).execute(),
    );
    expect(told).toEqual([]);
  });
});
