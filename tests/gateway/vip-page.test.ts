// The VIP page crawlers get (gateway/page-html.ts): its plans, and, as people read it on the
// page, that they cannot be bought while 是否启用 VIP 会员 is off or no way of paying is offered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, startGateway, type TestGateway } from './helpers';
import { startFakeBackend, type FakeBackend } from './fake-backend';

let backend: FakeBackend;
let gw: TestGateway;

beforeAll(async () => {
  backend = await startFakeBackend();
  gw = await startGateway(backend.url, { startDataTtlMs: 0 });
});
afterAll(async () => {
  await gw.close();
  await backend.close();
});

const PLANS = [{ code: 'year', title: '年度会员', days: 365, price: 298 }];

async function plansSection() {
  const { res, doc } = await fetchPage(gw.url, '/vip');
  expect(res.status).toBe(200);
  return [...doc.querySelectorAll('#root [data-crawler] main section')].find(
    (s) => s.querySelector('h2')?.textContent === '会员套餐',
  )!;
}

describe('VIP page for crawlers', () => {
  it('says the plans cannot be bought yet while VIP is off, or on with no way of paying', async () => {
    for (const [vip, pay] of [
      [{ enable: false }, { providers: ['manual'] }],
      [{ enable: true }, { providers: [] }],
    ] as const) {
      Object.assign(backend.settings, { vip: { ...vip, plans: PLANS }, pay });
      const plans = await plansSection();
      expect(plans.querySelector('p')?.textContent).toBe('VIP 会员暂未开放购买，敬请期待。');
      expect(plans.querySelector('li')?.textContent).toBe('年度会员：¥298.00 / 365 天');
    }
  });

  it('lists the plans alone while they are on sale', async () => {
    Object.assign(backend.settings, { vip: { enable: true, plans: PLANS }, pay: { providers: ['alipay'] } });
    const plans = await plansSection();
    expect(plans.querySelector('p')).toBeNull();
    expect(plans.querySelector('li')?.textContent).toBe('年度会员：¥298.00 / 365 天');
  });
});
