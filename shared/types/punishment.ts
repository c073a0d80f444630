// Wire types of punishment (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Punishment {
  id?: number;
  user_id?: number;
  /** See constants `punishmentTypeOptions`. */
  type?: number;
  enable?: boolean;
  /** JSON text: `[{"u":<admin id>,"t":<type>,"ts":<unix seconds>}]`. */
  operators?: string;
  remark?: string;
  reason?: string;
  username?: string;
  /** Absent = permanent. */
  end_time?: string;
  created_at?: string;
  updated_at?: string;
}

export interface ListPunishmentReply { total?: number; punishment?: Punishment[] }

export interface CreatePunishmentRequest {
  user_id: number[];
  type: number[];
  enable?: boolean;
  remark?: string;
  reason?: string;
  /** Omitted = permanent. */
  end_time?: string;
}

export interface GetPunishmentRequest { id: number }

export interface CancelPunishmentRequest { id: number[] }

export interface ListPunishmentRequest extends PageRequest {
  order?: string;
  type?: number[];
  enable?: number[];
  user_id?: number[];
}
