// Wire types of punishment (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as punishmentMessages from '../messages/punishment';

/**
 * `type`: See constants `punishmentTypeOptions`.
 * `operators`: JSON text: `[{"u":<admin id>,"t":<type>,"ts":<unix seconds>}]`.
 * `end_time`: Absent = permanent.
 */
export type Punishment = Wire<typeof punishmentMessages.Punishment>;

export type ListPunishmentReply = Wire<typeof punishmentMessages.ListPunishmentReply>;

/**
 * `end_time`: Omitted = permanent.
 */
export type CreatePunishmentRequest = Wire<typeof punishmentMessages.CreatePunishmentRequest>;

export type GetPunishmentRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type CancelPunishmentRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListPunishmentRequest = Wire<typeof punishmentMessages.ListPunishmentRequest>;
