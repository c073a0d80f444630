// Wire types of category (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as categoryMessages from '../messages/category';
import type * as commonMessages from '../messages/common';

/**
 * `parent_id`: 0 (or absent) = top level.
 * `sort`: Higher first.
 * `type`: 0 document category, 1 article category.
 */
export type Category = Wire<typeof categoryMessages.Category>;

/** `total` is never returned by ListCategory. */
export type ListCategoryReply = Wire<typeof categoryMessages.ListCategoryReply>;

export type GetCategoryRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type DeleteCategoryRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

/**
 * `type`: Defaults to [0] (document categories) when omitted.
 */
export type ListCategoryRequest = Wire<typeof categoryMessages.ListCategoryRequest>;
