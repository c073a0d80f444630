import { queryOptions } from '@tanstack/react-query';
import type { ListBannerReply } from '../../../shared/types';
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
