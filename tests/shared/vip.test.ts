import { describe, expect, it } from 'vitest';
import { optionLabel } from '../../shared/constants';
import {
  OrderStatus,
  formatFen,
  formatVipPlans,
  isPaymentProvider,
  orderStatusOptions,
  parseVipPlans,
  vipPlanDrafts,
  vipPlanProblems,
  vipPlansProblem,
  vipOnSale,
  yuanToFen,
} from '../../shared/vip';

const draft = (fields: Partial<Parameters<typeof vipPlanProblems>[0]> = {}) => ({
  code: 'month',
  title: '月度会员',
  days: '30',
  price: '30',
  description: '',
  recommended: false,
  ...fields,
});

describe('parseVipPlans', () => {
  it('reads one plan per line, the description and the recommended flag optional', () => {
    expect(parseVipPlans('month|月度会员|30|30\nyear| 年度会员 |365|298.5|最划算|1\n\n')).toEqual([
      { code: 'month', title: '月度会员', days: 30, price: 30, description: '', recommended: false },
      { code: 'year', title: '年度会员', days: 365, price: 298.5, description: '最划算', recommended: true },
    ]);
  });

  it.each([
    ['a bad code', 'mo nth|月度|30|30'],
    ['no title', 'month||30|30'],
    ['zero days', 'month|月度|0|30'],
    ['a free plan', 'month|月度|30|0'],
    ['three decimals', 'month|月度|30|30.001'],
    ['a flag other than 1', 'month|月度|30|30||yes'],
    ['a seventh field', 'month|月度|30|30|说明|1|x'],
  ])('skips %s', (_what, line) => {
    expect(parseVipPlans(`${line}\nyear|年度|365|298`)).toEqual([expect.objectContaining({ code: 'year' })]);
    expect(vipPlansProblem(line)).toMatch(/^每行一个套餐/);
  });

  it('keeps the first of two plans with the same code', () => {
    expect(parseVipPlans('a|一|1|1\na|二|2|2').map((p) => p.title)).toEqual(['一']);
    expect(vipPlansProblem('a|一|1|1\na|二|2|2')).not.toBeNull();
    expect(vipPlansProblem('a|一|1|1\n\nb|二|2|2\n')).toBeNull();
  });
});

describe('plan editor helpers', () => {
  it('turn the config text into drafts and back', () => {
    const text = 'month|月度会员|30|30\nyear|年度会员|365|298|最划算|1';
    const drafts = vipPlanDrafts(text);
    expect(drafts[1]).toEqual({
      code: 'year',
      title: '年度会员',
      days: '365',
      price: '298',
      description: '最划算',
      recommended: true,
    });
    expect(formatVipPlans(drafts)).toBe(text);
    expect(formatVipPlans([draft({ recommended: true })])).toBe('month|月度会员|30|30||1');
  });

  it('name every problem of a plan in Chinese', () => {
    expect(vipPlanProblems(draft())).toEqual([]);
    expect(vipPlanProblems(draft({ code: '月', title: ' ', days: '1.5', price: '-1' }))).toEqual([
      '套餐代码须为 1 到 32 位字母、数字、下划线或短横线',
      '套餐名称不能为空',
      '天数须为 1 到 36500 的整数',
      '价格须在 0.01 到 100000 元之间，最多两位小数',
    ]);
    expect(vipPlanProblems(draft({ title: '会'.repeat(33), description: 'a|b' }))).toEqual([
      '套餐名称不能超过 32 个字符',
      '套餐名称和说明不能包含 | 或换行',
    ]);
    expect(vipPlanProblems(draft({ description: '说'.repeat(101) }))).toEqual(['套餐说明不能超过 100 个字符']);
  });
});

describe('money and enumerations', () => {
  it('converts yuan to fen exactly and prints fen as yuan', () => {
    expect(yuanToFen(0.29)).toBe(29);
    expect(yuanToFen(298.5)).toBe(29850);
    expect(formatFen(3000)).toBe('30.00');
    expect(formatFen(5)).toBe('0.05');
    expect(formatFen(-150)).toBe('-1.50');
  });

  it('labels order states and knows the providers', () => {
    expect(optionLabel(orderStatusOptions, OrderStatus.Refunded)).toBe('已退款');
    expect(isPaymentProvider('wechat')).toBe(true);
    expect(isPaymentProvider('paypal')).toBe(false);
  });
});

describe('vipOnSale', () => {
  it('is true with VIP switched on and a way of paying offered, else false', () => {
    expect(vipOnSale({ vip: { enable: true }, pay: { providers: ['manual'] } })).toBe(true);
    expect(vipOnSale({ vip: { enable: true }, pay: { providers: [] } })).toBe(false);
    expect(vipOnSale({ vip: { enable: false }, pay: { providers: ['alipay'] } })).toBe(false);
    expect(vipOnSale({})).toBe(false);
  });
});
