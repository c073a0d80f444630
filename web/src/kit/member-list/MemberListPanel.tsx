import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDate, SHORT_DATE_FORMAT } from '../../../../shared/format';
import { Pager } from '../../ui/Pager';
import { Panel } from '../../ui/Panel';
import { QueryStates } from '../query-states/QueryStates';
import { useLastPageFallback, usePageParam } from './page-param';
import { useRowFocusKeeper } from './row-focus';
import './member-list.css';

const PAGE_SIZE = 10;

/** A record's time in a member list: date and minute, or '-' when the record has none. */
export const recordTime = (value: string | undefined) => (value ? formatDate(value, SHORT_DATE_FORMAT) : '-');

export interface MemberListColumn<Row> {
  title: string;
  cell: (row: Row) => ReactNode;
}

/**
 * A screen of the member area that lists the member's records ten at a time: the heading,
 * a table with one column per `columns` entry, the paging, and the loading, error and empty states.
 */
export function MemberListPanel<Data extends { total?: number }, Key extends QueryKey, Row extends { id?: number }>({
  title,
  titleId,
  above,
  query,
  rowsOf,
  columns,
  failure,
  empty,
}: {
  title: string;
  titleId: string;
  /**
   * What comes between the heading and the list (e.g. tabs choosing what is listed); given the
   * list's answer (undefined until it comes) where it depends on it (清空全部 only on a list).
   */
  above?: ReactNode | ((data: Data | undefined) => ReactNode);
  /** The list query of one page, e.g. `myOrdersQuery`. */
  query: (page: number, size: number) => UseQueryOptions<Data, Error, Data, Key>;
  rowsOf: (data: Data) => Row[] | undefined;
  columns: readonly MemberListColumn<Row>[];
  failure: string;
  empty: ReactNode;
}) {
  const pageParam = usePageParam();
  const [page, setPage] = pageParam;
  const list = useQuery({ ...query(page, PAGE_SIZE), placeholderData: keepPreviousData });
  const pastTheLast = useLastPageFallback(
    pageParam,
    list.isSuccess && !list.isPlaceholderData
      ? { rows: (rowsOf(list.data) ?? []).length, total: list.data.total ?? 0 }
      : undefined,
    PAGE_SIZE,
  );
  const { rows, onFocus, onBlur } = useRowFocusKeeper<HTMLTableSectionElement>(titleId, list.data && rowsOf(list.data));
  return (
    <Panel title={title} titleId={titleId} heading="h1">
      {typeof above === 'function' ? above(list.data) : above}
      <QueryStates
        query={list}
        loadingRows={5}
        failure={failure}
        isEmpty={(data) => !pastTheLast && (rowsOf(data) ?? []).length === 0}
        empty={empty}
      >
        {(data) => (
          <>
            <div className="app-member__list-wrap">
              {/* The roles: on a phone the rows are laid out as blocks (member-list.css), which would take the table's away. */}
              <table className="app-member__list" role="table" aria-labelledby={titleId}>
                <thead role="rowgroup">
                  <tr role="row">
                    {columns.map((column) => (
                      <th key={column.title} scope="col" role="columnheader">
                        {column.title}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody role="rowgroup" ref={rows} onFocus={onFocus} onBlur={onBlur}>
                  {(rowsOf(data) ?? []).map((row) => (
                    <tr key={row.id} role="row" data-row={row.id}>
                      {columns.map((column) => (
                        <td key={column.title} role="cell" data-label={column.title}>
                          {column.cell(row)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} size={PAGE_SIZE} total={data.total ?? 0} onChange={setPage} />
          </>
        )}
      </QueryStates>
    </Panel>
  );
}
