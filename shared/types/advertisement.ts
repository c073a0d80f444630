// Wire types of advertisement (docs/moredoc.md §12; conventions in ./common.ts).

export interface Advertisement {
  id?: number;
  user_id?: number;
  /** Slot key, see constants `adSlotGroups`. */
  position?: string;
  start_time?: string;
  end_time?: string;
  created_at?: string;
  updated_at?: string;
  /** HTML, sanitised by the embedded backend when it is saved. */
  content?: string;
  enable?: boolean;
  remark?: string;
  title?: string;
}

export interface ListAdvertisementRequest {
  page?: number;
  size?: number;
  wd?: string;
  field?: string[];
  order?: string;
  position?: string[];
  enable?: boolean[];
}

export interface GetAdvertisementByPositionRequest { position?: string[] }

export interface GetAdvertisementRequest { id?: number }

export interface DeleteAdvertisementRequest { id?: number[] }

export interface ListAdvertisementReply { total?: number; advertisement?: Advertisement[] }
