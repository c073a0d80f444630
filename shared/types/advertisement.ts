// Wire types of advertisement (docs/moredoc.md §12; conventions in ./common.ts).

/**
 * `position`: Slot key, see constants `adSlotGroups`.
 * `content`: HTML, sanitised by the embedded backend when it is saved.
 */
import type { Wire } from '../wire';
import type * as advertisementMessages from '../messages/advertisement';
import type * as commonMessages from '../messages/common';

export type Advertisement = Wire<typeof advertisementMessages.Advertisement>;

export type ListAdvertisementRequest = Wire<typeof advertisementMessages.ListAdvertisementRequest>;

export type GetAdvertisementByPositionRequest = Wire<typeof advertisementMessages.GetAdvertisementByPositionRequest>;

export type GetAdvertisementRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type DeleteAdvertisementRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListAdvertisementReply = Wire<typeof advertisementMessages.ListAdvertisementReply>;
