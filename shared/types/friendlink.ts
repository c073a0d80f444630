// Wire types of friendlink (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Friendlink {
  id?: number;
  title?: string;
  link?: string;
  description?: string;
  sort?: number;
  enable?: boolean;
  created_at?: string;
  updated_at?: string;
}

export interface ListFriendlinkReply { total?: number; friendlink?: Friendlink[] }

export interface GetFriendlinkRequest { id: number }

export interface DeleteFriendlinkRequest { id: number[] }

export interface ListFriendlinkRequest extends PageRequest { enable?: boolean[] }
