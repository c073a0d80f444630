// Wire types of banner (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Banner {
  id?: number;
  title?: string;
  /** Image URL path. */
  path?: string;
  sort?: number;
  enable?: boolean;
  /** 0 website, 1 mini-program, 2 app. */
  type?: number;
  /** Click-through link. */
  url?: string;
  description?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListBannerReply { total?: number; banner?: Banner[] }

export interface GetBannerRequest { id: number }

export interface DeleteBannerRequest { id: number[] }

export interface ListBannerRequest extends PageRequest {
  type?: number[];
  enable?: boolean[];
}
