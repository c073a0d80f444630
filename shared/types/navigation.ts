// Wire types of navigation (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as navigationMessages from '../messages/navigation';

/**
 * `href`: Absolute URL or site path.
 * `target`: `_self` or `_blank`.
 * `sort`: Higher first.
 * `enable`: False rows are still listed; the client filters.
 * `parent_id`: 0 (or absent) = top level.
 * `fixed`: Built-in entry that cannot be deleted.
 */
export type Navigation = Wire<typeof navigationMessages.Navigation>;

export type ListNavigationReply = Wire<typeof navigationMessages.ListNavigationReply>;

export type GetNavigationRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type DeleteNavigationRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

/**
 * `order`: Comma-separated, default `sort desc`.
 */
export type ListNavigationRequest = Wire<typeof navigationMessages.ListNavigationRequest>;
