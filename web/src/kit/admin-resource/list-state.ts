// Where an admin list is — its page, page size and applied filters — kept in the address
// (`?page=3&size=20&status=6`), so that coming back to the list (the browser's back from an
// edit screen, a reload, a shared link) shows the same rows.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { FilterDef, FilterValue, FilterValues } from './resource';

/** The parameter names a filter keeps its value under (a date range: its two ends). */
function filterKeys(filter: FilterDef): string[] {
  return filter.kind === 'date-range' ? [filter.from, filter.to] : [filter.name];
}

/** A time as a date range writes it (ISO 8601, `2024-04-30T16:00:00.000Z`), that the date pickers can show. */
const isIsoTime = (text: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text));

/**
 * A value read back from the address: a select's option of that spelling, else a number, a boolean or
 * the text. What the filter could not have written is dropped, so that an old or mangled link shows the
 * list unfiltered by it rather than a 400 (`?status=abc`) or a crashed date picker (`?created_from=xyz`):
 * a time that is no ISO 8601 time, a value none of a select's options has (while they are still
 * loading, only a number or a boolean passes).
 */
function readValue(filter: FilterDef, text: string): FilterValue {
  if (filter.kind === 'keyword') return text;
  if (filter.kind === 'date-range') return isIsoTime(text) ? text : undefined;
  const scalar = /^-?\d+$/.test(text) ? Number(text) : text === 'true' || text === 'false' ? text === 'true' : text;
  if (filter.kind === 'select') {
    const option = filter.options.find((o) => String(o.value) === text);
    if (option) return option.value;
    return filter.options.length === 0 && typeof scalar !== 'string' ? scalar : undefined;
  }
  return scalar;
}

function positiveInteger(text: string | null): number | undefined {
  const value = Number(text);
  return text && Number.isInteger(value) && value > 0 ? value : undefined;
}

export interface ListState {
  page: number;
  size: number;
  filters: FilterValues;
  /** Another page; `replace` puts it in place of this one in the history (a page that no longer exists). */
  setPage: (page: number, options?: { replace?: boolean }) => void;
  setSize: (size: number) => void;
  /** New filters, from the first page. */
  applyFilters: (filters: FilterValues) => void;
}

export function useListState(
  filterDefs: readonly FilterDef[] | undefined,
  defaultSize: number,
  sizes: readonly number[],
): ListState {
  const [params, setParams] = useSearchParams();
  const search = params.toString();

  const page = positiveInteger(params.get('page')) ?? 1;
  const askedSize = positiveInteger(params.get('size'));
  const size = askedSize && sizes.includes(askedSize) ? askedSize : defaultSize;
  const filters = useMemo(() => {
    const read = new URLSearchParams(search);
    const values: FilterValues = {};
    for (const filter of filterDefs ?? [])
      for (const key of filterKeys(filter)) {
        const text = read.get(key);
        const value = text === null || text === '' ? undefined : readValue(filter, text);
        if (value !== undefined) values[key] = value;
      }
    return values;
  }, [filterDefs, search]);

  const go = useCallback(
    (next: { page: number; size: number; filters: FilterValues }, replace = false) => {
      const out = new URLSearchParams();
      for (const [key, value] of Object.entries(next.filters))
        if (value !== undefined && value !== '') out.set(key, String(value));
      if (next.page > 1) out.set('page', String(next.page));
      if (next.size !== defaultSize) out.set('size', String(next.size));
      // The list stays where the admin scrolled it, as before the state moved to the address.
      setParams(out, { preventScrollReset: true, replace });
    },
    [defaultSize, setParams],
  );

  return {
    page,
    size,
    filters,
    setPage: (next, options) => go({ page: next, size, filters }, options?.replace),
    setSize: (next) => go({ page: 1, size: next, filters }),
    applyFilters: (next) => go({ page: 1, size, filters: next }),
  };
}
