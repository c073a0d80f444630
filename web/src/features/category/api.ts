// CategoryAPI (docs/moredoc.md): the public category list (start data) and the admin's
// management; `type` picks documents or articles. Every write marks every category query
// stale (the public list, both admin trees).
import { queryOptions } from '@tanstack/react-query';
import type { Category, ListCategoryReply } from '../../../../shared/types/category';
import { api, unwrap } from '../../api/client';
import { resourceWrites } from '../../api/query-client';

export const CATEGORY_FIELDS = [
  'id',
  'title',
  'parent_id',
  'icon',
  'cover',
  'doc_count',
  'enable',
  'description',
  'show_description',
  'type',
] as const;

/** Category types of docs/product.md §3. */
export const CATEGORY_TYPE = { document: 0, article: 1 } as const;
export type CategoryType = (typeof CATEGORY_TYPE)[keyof typeof CATEGORY_TYPE];

export const categoryKeys = {
  all: ['category'] as const,
  public: ['category', 'list'] as const,
  admin: (type: CategoryType) => ['category', 'admin', type] as const,
};

/** Every enabled category of both types, with the fields the SPA shows (docs/product.md §7). */
export const fetchCategoryList = () =>
  api.get<ListCategoryReply>('/api/v1/category/list', {
    field: [...CATEGORY_FIELDS],
    type: [CATEGORY_TYPE.document, CATEGORY_TYPE.article],
  });

export const categoryListQuery = () =>
  queryOptions({
    queryKey: categoryKeys.public,
    queryFn: async () => unwrap(await fetchCategoryList()).category ?? [],
    staleTime: 5 * 60_000,
  });

/** Every category of `type`, enabled or not (with the ListCategory permission). */
export const listCategories = (type: CategoryType, wd?: string) =>
  api.get<ListCategoryReply>('/api/v1/category/list', { type: [type], wd, page: 1, size: 10_000 });

/**
 * Create (one category per line of `title`, stored enabled), update (every column) and
 * delete (with their children; refused, deleting nothing, while one of them holds a document or
 * an article in any status: docs/api.md §3).
 */
export const categoryWrites = resourceWrites<Category>('/api/v1/category', [categoryKeys.all]);

/** Every category of `type`, enabled or not, for the pickers of admin screens (articles filed under them). */
export const allCategoriesQuery = (type: CategoryType) =>
  queryOptions({
    queryKey: [...categoryKeys.admin(type), 'all'] as const,
    queryFn: async () => unwrap(await listCategories(type)).category ?? [],
  });

/** Categories as picker options, each labelled with its path (`公告 / 站内公告`), in tree order. */
export function categoryOptions(categories: readonly Category[]): { value: number; label: string }[] {
  const byParent = new Map<number, Category[]>();
  const ids = new Set(categories.map((c) => c.id));
  for (const c of categories) {
    const parent = c.parent_id && ids.has(c.parent_id) ? c.parent_id : 0;
    byParent.set(parent, [...(byParent.get(parent) ?? []), c]);
  }
  const walk = (parent: number, prefix: string, depth: number): { value: number; label: string }[] =>
    depth > 8
      ? []
      : (byParent.get(parent) ?? []).flatMap((c) => {
          const label = prefix ? `${prefix} / ${c.title ?? ''}` : (c.title ?? '');
          return [{ value: c.id ?? 0, label }, ...walk(c.id ?? 0, label, depth + 1)];
        });
  return walk(0, '', 0);
}
