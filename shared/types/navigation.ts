// Wire types of navigation (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Navigation {
  id?: number;
  title?: string;
  /** Absolute URL or site path. */
  href?: string;
  /** `_self` or `_blank`. */
  target?: string;
  color?: string;
  /** Higher first. */
  sort?: number;
  /** False rows are still listed; the client filters. */
  enable?: boolean;
  /** 0 (or absent) = top level. */
  parent_id?: number;
  description?: string;
  /** Built-in entry that cannot be deleted. */
  fixed?: boolean;
  created_at?: string;
  updated_at?: string;
}

export interface ListNavigationReply { total?: number; navigation?: Navigation[] }

export interface GetNavigationRequest { id: number }

export interface DeleteNavigationRequest { id: number[] }

export interface ListNavigationRequest extends PageRequest {
  /** Comma-separated, default `sort desc`. */
  order?: string;
}
