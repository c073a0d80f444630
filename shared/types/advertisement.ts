// Wire types of advertisement (contract/endpoints.md §4; conventions in ./common.ts).

export interface Advertisement {
  id?: number;
  user_id?: number;
  /** Slot key, see constants `adSlotGroups`. */
  position?: string;
  content?: string;
  enable?: boolean;
  remark?: string;
  title?: string;
  start_time?: string;
  end_time?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListAdvertisementReply { total?: number; advertisement?: Advertisement[] }
