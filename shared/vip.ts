// VIP plans, money and order enumerations, shared by the backend (orders, config checks)
// and the SPA (the plan table editor, prices, order states). See docs/api.md §1 and §8.
import type { Option } from './constants';
import type { Settings, VipPlan } from './types/config';

export type FullVipPlan = Required<VipPlan>;

/** VIP membership can be bought: switched on (`vip.enable`), with a way of paying offered (`pay.providers`). */
export function vipOnSale(settings: Pick<Settings, 'vip' | 'pay'>): boolean {
  return settings.vip?.enable === true && (settings.pay?.providers ?? []).length > 0;
}

/** What `/vip` says while membership cannot be bought. */
export const VIP_NOT_ON_SALE = 'VIP 会员暂未开放购买，敬请期待。';

export const VIP_PLAN_CODE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const VIP_PLAN_TITLE_MAX = 32;
export const VIP_PLAN_DESCRIPTION_MAX = 100;
export const VIP_PLAN_MAX_DAYS = 36500;
/** Yuan; the payment providers take at most this much in one order of ours. */
export const VIP_PLAN_MAX_PRICE = 100000;

/** The plan fields as an editor holds them (text inputs), before they are checked. */
export interface VipPlanDraft {
  code: string;
  title: string;
  days: string | number;
  price: string | number;
  description: string;
  recommended: boolean;
}

const PRICE_PATTERN = /^\d{1,6}(\.\d{1,2})?$/;
const FORBIDDEN_TEXT = /[|\r\n]/;

/** A plan's text field a problem is about (the editor marks that input). */
export type VipPlanField = Exclude<keyof VipPlanDraft, 'recommended'>;

/** What is wrong with one plan, each problem with the field it is about, in Chinese (empty when valid). */
export function vipPlanFieldProblems(plan: VipPlanDraft): { field: VipPlanField; message: string }[] {
  const problems: { field: VipPlanField; message: string }[] = [];
  const days = String(plan.days).trim();
  const price = String(plan.price).trim();
  if (!VIP_PLAN_CODE_PATTERN.test(plan.code))
    problems.push({ field: 'code', message: '套餐代码须为 1 到 32 位字母、数字、下划线或短横线' });
  const title = plan.title.trim();
  if (!title) problems.push({ field: 'title', message: '套餐名称不能为空' });
  else if ([...title].length > VIP_PLAN_TITLE_MAX)
    problems.push({ field: 'title', message: `套餐名称不能超过 ${VIP_PLAN_TITLE_MAX} 个字符` });
  if (FORBIDDEN_TEXT.test(plan.title) || FORBIDDEN_TEXT.test(plan.description))
    problems.push({
      field: FORBIDDEN_TEXT.test(plan.title) ? 'title' : 'description',
      message: '套餐名称和说明不能包含 | 或换行',
    });
  if (!/^\d{1,5}$/.test(days) || Number(days) < 1 || Number(days) > VIP_PLAN_MAX_DAYS)
    problems.push({ field: 'days', message: `天数须为 1 到 ${VIP_PLAN_MAX_DAYS} 的整数` });
  if (!PRICE_PATTERN.test(price) || Number(price) < 0.01 || Number(price) > VIP_PLAN_MAX_PRICE) {
    problems.push({ field: 'price', message: `价格须在 0.01 到 ${VIP_PLAN_MAX_PRICE} 元之间，最多两位小数` });
  }
  if ([...plan.description.trim()].length > VIP_PLAN_DESCRIPTION_MAX)
    problems.push({ field: 'description', message: `套餐说明不能超过 ${VIP_PLAN_DESCRIPTION_MAX} 个字符` });
  return problems;
}

/** What is wrong with one plan, in Chinese (empty when it is a valid plan). */
export function vipPlanProblems(plan: VipPlanDraft): string[] {
  return vipPlanFieldProblems(plan).map((problem) => problem.message);
}

function draftOfLine(line: string): VipPlanDraft {
  const [code = '', title = '', days = '', price = '', description = '', recommended = '', ...extra] = line
    .split('|')
    .map((s) => s.trim());
  // A seventh field, or a flag other than 1/0/empty, makes the line invalid through its code.
  const valid = extra.length === 0 && ['', '0', '1'].includes(recommended);
  return { code: valid ? code : '', title, days, price, description, recommended: recommended === '1' };
}

/**
 * `vip.plans`: one plan per line, `code|title|days|price in yuan|description|1 when recommended`
 * (the last two optional). Invalid lines and repeated codes are skipped.
 */
export function parseVipPlans(value: string): FullVipPlan[] {
  const plans: FullVipPlan[] = [];
  for (const line of value.split('\n')) {
    if (!line.trim()) continue;
    const draft = draftOfLine(line);
    if (vipPlanProblems(draft).length || plans.some((p) => p.code === draft.code)) continue;
    plans.push({
      code: draft.code,
      title: draft.title.trim(),
      days: Number(draft.days),
      price: Number(draft.price),
      description: draft.description.trim(),
      recommended: draft.recommended,
    });
  }
  return plans;
}

/** Drafts of every non-empty line, valid or not (what the plan table editor starts from). */
export function vipPlanDrafts(value: string): VipPlanDraft[] {
  return value
    .split('\n')
    .filter((line) => line.trim())
    .map(draftOfLine);
}

/** The `vip.plans` text of these plans (the inverse of parseVipPlans). */
export function formatVipPlans(plans: readonly VipPlanDraft[]): string {
  return plans
    .map((p) =>
      [
        p.code,
        p.title.trim(),
        String(p.days).trim(),
        String(p.price).trim(),
        p.description.trim(),
        p.recommended ? '1' : '',
      ]
        .join('|')
        .replace(/\|+$/, ''),
    )
    .join('\n');
}

/** The config check of `vip.plans`: null when every line is a valid plan with its own code. */
export function vipPlansProblem(value: string): string | null {
  const lines = value.split('\n').filter((line) => line.trim());
  if (parseVipPlans(value).length === lines.length) return null;
  return '每行一个套餐，格式为 代码|名称|天数|价格（元）|说明|是否推荐（1），价格 0.01 元起，代码不能重复';
}

/** Yuan (at most two decimals) → fen, exactly. */
export function yuanToFen(yuan: number): number {
  return Math.round(yuan * 100);
}

/** Fen → `30.00` (no currency sign). */
export function formatFen(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Order states (docs/api.md §10): pending → paid → refunded, pending → closed. */
export const OrderStatus = { Pending: 0, Paid: 1, Closed: 2, Refunded: 3 } as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

export const orderStatusOptions: readonly Option[] = [
  { value: OrderStatus.Pending, label: '待支付' },
  { value: OrderStatus.Paid, label: '已支付' },
  { value: OrderStatus.Closed, label: '已关闭' },
  { value: OrderStatus.Refunded, label: '已退款' },
];

export type PaymentProviderName = 'alipay' | 'wechat' | 'manual';
export const PAYMENT_PROVIDERS: readonly PaymentProviderName[] = ['alipay', 'wechat', 'manual'];

export const paymentProviderOptions: readonly Option<PaymentProviderName>[] = [
  { value: 'alipay', label: '支付宝' },
  { value: 'wechat', label: '微信支付' },
  { value: 'manual', label: '线下转账' },
];

export function isPaymentProvider(value: string): value is PaymentProviderName {
  return (PAYMENT_PROVIDERS as readonly string[]).includes(value);
}

/** Why a pending order was closed. */
export const closeReasonOptions: readonly Option<string>[] = [
  { value: 'cancel', label: '会员取消' },
  { value: 'timeout', label: '超时未支付' },
  { value: 'admin', label: '管理员关闭' },
  { value: 'replaced', label: '套餐已变更' },
];

export const TRANSFER_PROVIDER: PaymentProviderName = 'manual';
export const TIMEOUT_CLOSE_REASON = 'timeout';
/** An order closed for a new one of another plan (a member holds one pending order, decision 107). */
export const REPLACED_CLOSE_REASON = 'replaced';
/**
 * Why a transfer can close while its money may still come: its own timeout (`pay.manual_timeout`),
 * or migration 044 leaving a member who had submitted several transfers the newest pending (CreateOrder
 * never replaces a submitted transfer: it refuses the new order).
 */
export const UNSETTLED_TRANSFER_REASONS: readonly string[] = [TIMEOUT_CLOSE_REASON, REPLACED_CLOSE_REASON];

/**
 * A closed order an admin may still confirm (docs/api.md §10): a payment arrived after it
 * closed, or a transfer whose days ran out before the admin saw the money (the member who
 * cancelled, an admin who closed it, a replaced plan: none of these is waiting for money).
 */
export function confirmableAfterClose(order: {
  status?: number;
  late_paid?: boolean | number;
  provider?: string;
  close_reason?: string;
}): boolean {
  if (order.status !== OrderStatus.Closed) return false;
  return Boolean(order.late_paid) || isUnsettledTransfer(order);
}

/** A transfer closed while its money may well be on its way (UNSETTLED_TRANSFER_REASONS). */
export function isUnsettledTransfer(order: { provider?: string; close_reason?: string }): boolean {
  return order.provider === TRANSFER_PROVIDER && UNSETTLED_TRANSFER_REASONS.includes(order.close_reason ?? '');
}

/** What became of a payment notification. */
export const notificationOutcomeOptions: readonly Option<string>[] = [
  { value: 'paid', label: '已入账' },
  { value: 'repeated', label: '重复通知' },
  { value: 'late', label: '关闭后到账' },
  { value: 'ignored', label: '无需处理' },
  { value: 'refused', label: '已拒绝' },
];

/** Changes of a VIP period (vip_log.action). */
export const VipAction = { Purchase: 1, Grant: 2, Revoke: 3, Refund: 4 } as const;
export type VipAction = (typeof VipAction)[keyof typeof VipAction];

export const vipActionOptions: readonly Option[] = [
  { value: VipAction.Purchase, label: '购买' },
  { value: VipAction.Grant, label: '管理员开通/延长' },
  { value: VipAction.Revoke, label: '管理员取消' },
  { value: VipAction.Refund, label: '订单退款' },
];
