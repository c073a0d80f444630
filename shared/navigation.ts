// The public header's navigation tree, built from the flat list of
// `GET /api/v1/navigation/list` (docs/product.md §3, §7).
import type { Navigation } from './types/navigation';

export interface NavigationNode extends Navigation {
  children: NavigationNode[];
}

const bySortDesc = (a: Navigation, b: Navigation) => (b.sort ?? 0) - (a.sort ?? 0) || (a.id ?? 0) - (b.id ?? 0);

/**
 * Only enabled items are kept (an omitted `enable` is false, as the wire omits false), and
 * an item under a disabled parent is disabled with its whole subtree. Siblings are sorted
 * by `sort`, higher first, then by id. An item whose parent is not in the list at all
 * (an orphan) is shown at the top level rather than lost; an item that is its own parent
 * is top level too. Items caught in a parent cycle have no way to the top and are dropped,
 * as are repeated ids after the first.
 */
export function buildNavigationTree(items: readonly Navigation[]): NavigationNode[] {
  const byId = new Map<number, Navigation>();
  for (const item of items) {
    if (item.id !== undefined && !byId.has(item.id)) byId.set(item.id, item);
  }
  const roots: Navigation[] = [];
  const childrenOf = new Map<number, Navigation[]>();
  for (const item of items) {
    if (item.id !== undefined && byId.get(item.id) !== item) continue;
    const parent = item.parent_id ?? 0;
    if (parent === 0 || parent === item.id || !byId.has(parent)) {
      roots.push(item);
    } else {
      const siblings = childrenOf.get(parent) ?? [];
      siblings.push(item);
      childrenOf.set(parent, siblings);
    }
  }
  const build = (level: readonly Navigation[]): NavigationNode[] =>
    level
      .filter((item) => item.enable === true)
      .sort(bySortDesc)
      .map((item) => {
        // The wire has no `children`; a server that sends some anyway gets them replaced.
        const { children: _ignored, ...fields } = item as Navigation & { children?: unknown };
        const kids = item.id === undefined ? [] : (childrenOf.get(item.id) ?? []);
        return { ...fields, children: build(kids) };
      });
  return build(roots);
}
