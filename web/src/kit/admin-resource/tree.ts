// Nested resources (navigation, categories) arrive as flat lists with `parent_id`; the admin
// sees every row, enabled or not, as a tree, and picks parents from the same tree.
import type { FieldDef, FormValues, TreeOption } from './resource';

interface Node {
  id?: number;
  parent_id?: number;
}

export type WithChildren<Row> = Row & { children?: WithChildren<Row>[] };

/**
 * The rows as a tree in their list order; a row whose parent is missing (or itself, or in a
 * cycle) is shown at the top level rather than lost. Leaves have no `children` key, so the
 * table shows no expander for them.
 */
export function buildRowTree<Row extends Node>(rows: readonly Row[]): WithChildren<Row>[] {
  const byId = new Map<number, Row>();
  for (const row of rows) if (row.id !== undefined && !byId.has(row.id)) byId.set(row.id, row);
  const reachesRoot = (row: Row): boolean => {
    const seen = new Set<number>();
    let current: Row | undefined = row;
    while (current && current.parent_id && current.parent_id !== current.id && byId.has(current.parent_id)) {
      if (seen.has(current.parent_id)) return false;
      seen.add(current.parent_id);
      current = byId.get(current.parent_id);
    }
    return true;
  };
  const childrenOf = new Map<number, Row[]>();
  const roots: Row[] = [];
  for (const row of rows) {
    const parent = row.parent_id ?? 0;
    if (parent && parent !== row.id && byId.has(parent) && reachesRoot(row)) {
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), row]);
    } else {
      roots.push(row);
    }
  }
  const build = (level: readonly Row[]): WithChildren<Row>[] =>
    level.map((row) => {
      const { children: _old, ...fields } = row as WithChildren<Row>;
      const kids = row.id === undefined ? [] : (childrenOf.get(row.id) ?? []);
      return (kids.length ? { ...fields, children: build(kids) } : fields) as WithChildren<Row>;
    });
  return build(roots);
}

/** Ids of `id` and of every row below it. */
export function descendantIds<Row extends Node>(rows: readonly Row[], id: number): Set<number> {
  const result = new Set<number>([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of rows) {
      if (row.id !== undefined && row.parent_id !== undefined && result.has(row.parent_id) && !result.has(row.id)) {
        result.add(row.id);
        grew = true;
      }
    }
  }
  return result;
}

/**
 * Parent choices for a row: 顶级 (0) then the tree of `rows`; the edited row and its
 * descendants are disabled, since a row cannot move below itself.
 */
export function parentOptions<Row extends Node>(
  rows: readonly Row[],
  label: (row: Row) => string,
  editedId?: number,
  topLabel = '顶级（无上级）',
): TreeOption[] {
  const blocked = editedId ? descendantIds(rows, editedId) : new Set<number>();
  const toOption = (row: WithChildren<Row>): TreeOption => ({
    value: row.id ?? 0,
    label: label(row),
    disabled: row.id !== undefined && blocked.has(row.id),
    ...(row.children?.length ? { children: row.children.map(toOption) } : {}),
  });
  return [{ value: 0, label: topLabel }, ...buildRowTree(rows).map(toOption)];
}

interface TitledNode extends Node {
  title?: string;
}

/** What a nested resource of titled rows shares: rows named by their title, all on one page, shown as a tree. */
export const titledTree = {
  rowId: (row: TitledNode) => row.id ?? 0,
  rowLabel: (row: TitledNode) => row.title ?? '',
  pageSize: 0,
  arrange: buildRowTree,
};

/** The form field choosing a titled row's parent from the tree, the row itself and its descendants excluded. */
export const parentField = <Values extends FormValues & { parent_id: number | undefined }, Row extends TitledNode>(
  label: string,
  hint?: string,
): FieldDef<Values, Row> => ({
  name: 'parent_id' as Extract<keyof Values, string>,
  label,
  kind: 'tree-select',
  options: ({ rows, record }) => parentOptions(rows, (row) => row.title ?? '', record?.id),
  ...(hint ? { hint } : {}),
});
