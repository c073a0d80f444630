// Wire types of friendlink (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as friendlinkMessages from '../messages/friendlink';

export type Friendlink = Wire<typeof friendlinkMessages.Friendlink>;

export type ListFriendlinkReply = Wire<typeof friendlinkMessages.ListFriendlinkReply>;

export type GetFriendlinkRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type DeleteFriendlinkRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListFriendlinkRequest = Wire<typeof friendlinkMessages.ListFriendlinkRequest>;
