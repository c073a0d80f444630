// Wire types of category (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Category {
  id?: number;
  /** 0 (or absent) = top level. */
  parent_id?: number;
  title?: string;
  doc_count?: number;
  /** Higher first. */
  sort?: number;
  enable?: boolean;
  cover?: string;
  icon?: string;
  description?: string;
  show_description?: boolean;
  /** 0 document category, 1 article category. */
  type?: number;
  created_at?: string;
  updated_at?: string;
}

/** `total` is never returned by ListCategory. */
export interface ListCategoryReply { total?: number; category?: Category[] }

export interface GetCategoryRequest { id: number }

export interface DeleteCategoryRequest { id: number[] }

export interface ListCategoryRequest extends PageRequest {
  parent_id?: number[];
  enable?: boolean[];
  /** Defaults to [0] (document categories) when omitted. */
  type?: number[];
}
