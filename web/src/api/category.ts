import { queryOptions } from '@tanstack/react-query';
import type { Category, ListCategoryReply } from '../../../shared/types/category';
import type { Empty } from '../../../shared/types/common';
import { api, unwrap } from './client';

export const CATEGORY_FIELDS = [
  'id', 'title', 'parent_id', 'icon', 'cover', 'doc_count', 'enable', 'description', 'show_description', 'type',
] as const;

/** Category types of SPEC §3. */
export const CATEGORY_TYPE = { document: 0, article: 1 } as const;

/** Every enabled category of both types, with the fields the SPA shows (SPEC §7). */
export const fetchCategoryList = () =>
  api.get<ListCategoryReply>('/api/v1/category/list', {
    field: [...CATEGORY_FIELDS],
    type: [CATEGORY_TYPE.document, CATEGORY_TYPE.article],
  });

export const categoryListQuery = () =>
  queryOptions({
    queryKey: ['category', 'list'] as const,
    queryFn: async () => unwrap(await fetchCategoryList()).category ?? [],
    staleTime: 5 * 60_000,
  });

/** The admin's category management (contract: CategoryAPI); `type` picks documents or articles. */
export const categoryApi = {
  /** Every category of `type`, enabled or not (with the ListCategory permission). */
  list: (type: number, wd?: string) => api.get<ListCategoryReply>('/api/v1/category/list', { type: [type], wd, page: 1, size: 10_000 }),
  /** One category per line of `title`; the backend stores new categories enabled. */
  create: (category: Category) => api.post<Empty>('/api/v1/category', category),
  /** Full replacement of all columns. */
  update: (category: Category) => api.put<Empty>('/api/v1/category', category),
  /** Only categories without documents are deleted (with their document-less children). */
  remove: (ids: readonly number[]) => api.delete<Empty>('/api/v1/category', { id: ids }),
};
