// BannerAPI (docs/moredoc.md): the website carousel of the home page and the admin's
// management. Every write marks every banner query stale (admin lists, the home carousel).
import { websiteBannersCall } from '../../../../shared/page-data';
import type { Banner, ListBannerReply } from '../../../../shared/types/banner';
import { callQuery } from '../../api/call-query';
import { api } from '../../api/client';
import { resourceWrites } from '../../api/query-client';

/** Banner types of docs/product.md §9. */
export const BANNER_TYPE = { website: 0, miniProgram: 1, app: 2 } as const;

export const bannerKeys = {
  all: ['banner'] as const,
  admin: ['banner', 'admin'] as const,
};

export const listBanners = (query: {
  page: number;
  size: number;
  wd?: string;
  type?: readonly number[];
  enable?: readonly boolean[];
}) => api.get<ListBannerReply>('/api/v1/banner/list', query);

/** The home page's carousel (the page the gateway serves may carry it). */
export const websiteBannersQuery = () => callQuery(websiteBannersCall());

/** Create, update (every column) and delete. */
export const bannerWrites = resourceWrites<Banner, Banner>('/api/v1/banner', [bannerKeys.all]);
