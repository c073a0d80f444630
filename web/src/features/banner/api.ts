// BannerAPI (contract: endpoints.md): the website carousel of the home page and the admin's
// management. Every write marks every banner query stale (admin lists, the home carousel).
import { queryOptions } from '@tanstack/react-query';
import type { Banner, ListBannerReply } from '../../../../shared/types/banner';
import type { Empty } from '../../../../shared/types/common';
import { api, unwrap } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';

/** Banner types of SPEC §9. */
export const BANNER_TYPE = { website: 0, miniProgram: 1, app: 2 } as const;

export const bannerKeys = {
  all: ['banner'] as const,
  website: ['banner', 'list', 'website'] as const,
  admin: ['banner', 'admin'] as const,
};

export const listBanners = (query: { page: number; size: number; wd?: string; type?: readonly number[]; enable?: readonly boolean[] }) =>
  api.get<ListBannerReply>('/api/v1/banner/list', query);

export const websiteBannersQuery = () =>
  queryOptions({
    queryKey: bannerKeys.website,
    queryFn: async () => unwrap(await listBanners({ type: [BANNER_TYPE.website], page: 1, size: 20 })).banner ?? [],
  });

const stale = [bannerKeys.all];

export const createBanner = (banner: Banner, context: WriteContext) =>
  invalidateAfter(api.post<Banner>('/api/v1/banner', banner), context, stale);

/** Full replacement of all columns. */
export const updateBanner = (banner: Banner, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/banner', banner), context, stale);

export const deleteBanners = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/banner', { id: ids }), context, stale);
