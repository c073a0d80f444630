// Wire types of UserVipAPI (ours, docs/api.md §9; conventions in ./common.ts).

/** A member's VIP period; `end_at` in the past (and no `active`) is an expired one. */
export interface UserVip {
  user_id?: number;
  username?: string;
  plan_code?: string;
  plan_title?: string;
  start_at?: string;
  end_at?: string;
  active?: boolean;
  created_at?: string;
  updated_at?: string;
}

/** One change of a period. `action`: 1 purchase, 2 grant, 3 revoke, 4 refund (shared/vip.ts `VipAction`). */
export interface VipLog {
  id?: number;
  user_id?: number;
  action?: number;
  /** Days added (negative: taken back by a refund). */
  days?: number;
  order_id?: number;
  operator_id?: number;
  /** The admin's username ('' for a purchase). */
  operator?: string;
  reason?: string;
  end_before?: string;
  end_after?: string;
  created_at?: string;
}

/** `status`: 1 active, 2 expired. */
export interface ListUserVipRequest {
  page?: number;
  size?: number;
  wd?: string;
  user_id?: number[];
  status?: number[];
}

export interface ListUserVipReply {
  total?: number;
  user_vip?: UserVip[];
}

export interface GrantUserVipRequest {
  user_id: number[];
  days: number;
  reason: string;
}

export interface RevokeUserVipRequest {
  user_id: number[];
  reason: string;
}

export interface ListUserVipLogRequest {
  page?: number;
  size?: number;
  user_id: number;
}

export interface ListUserVipLogReply {
  total?: number;
  log?: VipLog[];
}
