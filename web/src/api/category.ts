import { queryOptions } from '@tanstack/react-query';
import type { ListCategoryReply } from '../../../shared/types';
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
