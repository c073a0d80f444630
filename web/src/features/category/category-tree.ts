// The public category trees (header, home page), from the category list of the start data.
import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Category } from '../../../../shared/types/category';
import { CATEGORY_TYPE, categoryListQuery } from './api';

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

export function useArticleCategories(): CategoryNode[] {
  const { data } = useSuspenseQuery(categoryListQuery());
  return useMemo(() => buildCategoryTree(data, CATEGORY_TYPE.article), [data]);
}

/** The node with this id in the tree, or undefined. */
export function findCategory(nodes: readonly CategoryNode[], id: number): CategoryNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findCategory(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** The node's id and those of everything below it: what a category's list shows. */
export function subtreeIds(node: CategoryNode): number[] {
  return [node.id ?? 0, ...node.children.flatMap(subtreeIds)].filter((id) => id > 0);
}

/** The node `id` and its ancestors, root first; empty when the tree has no such node. */
export function categoryTrail(tree: readonly CategoryNode[], id: number): CategoryNode[] {
  for (const node of tree) {
    if (node.id === id) return [node];
    const below = categoryTrail(node.children, id);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}

export interface CategoryChoice {
  value: number;
  /** Indented by depth, for a flat select. */
  label: string;
  depth: number;
}

/** Every node of the tree, depth first, as choices of a flat select. */
export function categoryChoices(tree: readonly CategoryNode[], depth = 0): CategoryChoice[] {
  return tree.flatMap((node) => [
    { value: node.id ?? 0, label: `${'　'.repeat(depth)}${node.title ?? ''}`, depth },
    ...categoryChoices(node.children, depth + 1),
  ]);
}
