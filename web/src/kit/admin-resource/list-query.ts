// From the screen's filters to a list call's parameters, and from the call's answer to the
// rows and total the screen shows.
import { unwrap, type ApiResult } from '../../api/client';
import type { ListPage } from './resource';

/** Boolean filter options (enable): the server takes `true`/`false`. */
export const enabledFilterOptions = [
  { value: true, label: '启用' },
  { value: false, label: '禁用' },
] as const;

/** Filter value → the repeated-key array the list calls take, or nothing. */
export function asList<T>(value: T | undefined): T[] | undefined {
  return value === undefined ? undefined : [value];
}

/** The keyword of a filter, trimmed; undefined when empty. */
export function keyword(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  return text === '' ? undefined : text;
}

/**
 * A list call's answer as a page of rows: the rows under the reply's own name, and its total
 * (the number of rows when the reply has none, as for unpaged lists). A failure throws.
 */
export async function listPage<Reply extends { total?: number }, Row>(
  call: Promise<ApiResult<Reply>>,
  rowsOf: (reply: Reply) => Row[] | undefined,
): Promise<ListPage<Row>> {
  const reply = unwrap(await call);
  const rows = rowsOf(reply) ?? [];
  return { rows, total: reply.total ?? rows.length };
}
