// Wire types of UserVipAPI (ours, docs/api.md §9; conventions in ./common.ts).

/** A member's VIP period; `end_at` in the past (and no `active`) is an expired one. */
import type { Wire } from '../wire';
import type * as vipMessages from '../messages/vip';

export type UserVip = Wire<typeof vipMessages.UserVip>;

/**
 * One change of a period. `action`: 1 purchase, 2 grant, 3 revoke, 4 refund (shared/vip.ts `VipAction`).
 * `days`: Days added (negative: taken back by a refund).
 * `operator`: The admin's username ('' for a purchase).
 */
export type VipLog = Wire<typeof vipMessages.VipLog>;

/** `status`: 1 active, 2 expired. */
export type ListUserVipRequest = Wire<typeof vipMessages.ListUserVipRequest>;

export type ListUserVipReply = Wire<typeof vipMessages.ListUserVipReply>;

export type GrantUserVipRequest = Wire<typeof vipMessages.GrantUserVipRequest>;

export type RevokeUserVipRequest = Wire<typeof vipMessages.RevokeUserVipRequest>;

export type ListUserVipLogRequest = Wire<typeof vipMessages.ListUserVipLogRequest>;

export type ListUserVipLogReply = Wire<typeof vipMessages.ListUserVipLogReply>;
