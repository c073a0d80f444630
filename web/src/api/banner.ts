import { queryOptions } from '@tanstack/react-query';
import type { Banner, ListBannerReply } from '../../../shared/types/banner';
import type { Empty } from '../../../shared/types/common';
import { api, unwrap } from './client';

/** Banner types of SPEC §9. */
export const BANNER_TYPE = { website: 0, miniProgram: 1, app: 2 } as const;

export const fetchWebsiteBanners = () =>
  api.get<ListBannerReply>('/api/v1/banner/list', { type: [BANNER_TYPE.website], page: 1, size: 20 });

export const websiteBannersQuery = () =>
  queryOptions({
    queryKey: ['banner', 'list', 'website'] as const,
    queryFn: async () => unwrap(await fetchWebsiteBanners()).banner ?? [],
  });

/** The admin's banner management (contract: BannerAPI). */
export const bannerApi = {
  list: (query: { page: number; size: number; wd?: string; type?: readonly number[]; enable?: readonly boolean[] }) =>
    api.get<ListBannerReply>('/api/v1/banner/list', query),
  create: (banner: Banner) => api.post<Banner>('/api/v1/banner', banner),
  /** Full replacement of all columns. */
  update: (banner: Banner) => api.put<Empty>('/api/v1/banner', banner),
  remove: (ids: readonly number[]) => api.delete<Empty>('/api/v1/banner', { id: ids }),
};
