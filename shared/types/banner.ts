// Wire types of banner (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as bannerMessages from '../messages/banner';
import type * as commonMessages from '../messages/common';

/**
 * `path`: Image URL path.
 * `type`: 0 website, 1 mini-program, 2 app.
 * `url`: Click-through link.
 */
export type Banner = Wire<typeof bannerMessages.Banner>;

export type ListBannerReply = Wire<typeof bannerMessages.ListBannerReply>;

export type GetBannerRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type DeleteBannerRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListBannerRequest = Wire<typeof bannerMessages.ListBannerRequest>;
