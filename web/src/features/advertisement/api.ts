// AdvertisementAPI (docs/moredoc.md): the live ads every slot of the public pages reads
// (one call per page, which the page the gateway serves may carry), and the admin's
// management. Every write marks every ad query stale (admin lists, the live ads).
import { liveAdsCall } from '../../../../shared/page-data';
import type {
  Advertisement,
  ListAdvertisementReply,
  ListAdvertisementRequest,
} from '../../../../shared/types/advertisement';
import { callQuery } from '../../api/call-query';
import { api } from '../../api/client';
import { resourceWrites } from '../../api/query-client';

export const advertisementKeys = {
  all: ['advertisement'] as const,
  admin: ['advertisement', 'admin'] as const,
};

/** Every live ad; none (not an error) from a backend without the ad service. */
export const liveAdsQuery = () => callQuery(liveAdsCall(), { whenMissing: [] });

export const listAdvertisements = (query: ListAdvertisementRequest) =>
  api.get<ListAdvertisementReply>('/api/v1/advertisement/list', { ...query });

/** Create, update (every column) and delete. */
export const advertisementWrites = resourceWrites<Advertisement, Advertisement>('/api/v1/advertisement', [
  advertisementKeys.all,
]);

export type AdPhase = 'disabled' | 'upcoming' | 'showing' | 'ended';

/** Where an ad stands at `now`: shown only while enabled and between its start and end. */
export function adPhase(ad: Advertisement, now = Date.now()): AdPhase {
  if (ad.enable === false) return 'disabled';
  if (!ad.start_time || !ad.end_time) return 'ended';
  if (now < Date.parse(ad.start_time)) return 'upcoming';
  return now <= Date.parse(ad.end_time) ? 'showing' : 'ended';
}

/** Shown now (the cached list of live ads may outlive an ad's end). */
export const isShowing = (ad: Advertisement, now = Date.now()): boolean => adPhase(ad, now) === 'showing';
