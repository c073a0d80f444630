// Settings, navigation and categories: seeded from the start data, read everywhere.
import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { buildNavigationTree, type NavigationNode } from '../../../../shared/navigation';
import type { Category } from '../../../../shared/types/category';
import type { Settings } from '../../../../shared/types/config';
import { CATEGORY_TYPE, categoryListQuery } from '../../api/category';
import { navigationListQuery } from '../../api/navigation';
import { settingsQuery } from '../../api/settings';

export function useSettings(): Settings {
  return useSuspenseQuery(settingsQuery()).data;
}

export function useNavigationTree(): NavigationNode[] {
  const { data } = useSuspenseQuery(navigationListQuery());
  return useMemo(() => buildNavigationTree(data), [data]);
}

export interface CategoryNode extends Category {
  children: CategoryNode[];
}

/** Enabled categories of one type as a tree (parent_id), in the server's order. */
export function buildCategoryTree(categories: readonly Category[], type: number): CategoryNode[] {
  const ofType = categories.filter((c) => (c.type ?? 0) === type && c.enable !== false);
  const ids = new Set(ofType.map((c) => c.id));
  const nodes = new Map<number | undefined, CategoryNode[]>();
  for (const category of ofType) {
    const parent = category.parent_id && ids.has(category.parent_id) ? category.parent_id : 0;
    const list = nodes.get(parent) ?? [];
    list.push({ ...category, children: [] });
    nodes.set(parent, list);
  }
  const attach = (list: CategoryNode[], depth: number): CategoryNode[] =>
    list.map((node) => ({ ...node, children: depth > 8 ? [] : attach(nodes.get(node.id) ?? [], depth + 1) }));
  return attach(nodes.get(0) ?? [], 0);
}

export function useDocumentCategories(): CategoryNode[] {
  const { data } = useSuspenseQuery(categoryListQuery());
  return useMemo(() => buildCategoryTree(data, CATEGORY_TYPE.document), [data]);
}

/** The name the site goes by: sitename, else the home title, else a neutral default. */
export function siteName(settings: Settings): string {
  return settings.system?.sitename || settings.system?.title || '文库';
}
