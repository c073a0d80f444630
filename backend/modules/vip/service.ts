// What other modules may ask of the vip module: a member's period and benefits (the
// document module's seam, docs/api.md §9), and the changes orders make to a period.
export {
  extendVip,
  revokeVip,
  vipBenefits,
  vipDaysLeft,
  vipEndTooLate,
  vipPeriodOf,
  vipPeriodsOf,
  withdrawVip,
  type GrantedInterval,
  type VipBenefits,
  type VipChange,
  type VipPeriod,
  type Withdrawal,
} from './period';
