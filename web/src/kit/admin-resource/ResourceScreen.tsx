// The shared admin list screen: filters, toolbar (新建, batch actions), a table with row
// selection and paging, the create/edit side sheet and the confirmation dialogs, all driven
// by one `ResourceDef`. See the README ("Admin screens as resources").
import { useMutation } from '@tanstack/react-query';
import {
  cloneElement,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type RefObject,
} from 'react';
import { answeredBySigningInAgain, errorMessage, unwrap, type ApiResult } from '../../api/client';
import { batchShortfall, type WriteContext } from '../../api/query-client';
import { IconDelete, IconEdit, IconPlus, IconRefresh } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { Table, type ColumnProps } from '../../ui/semi-admin';
import { EmptyState, LoadingState, ErrorState } from '../../ui/states';
import { firstFocusable, useFocusFallback } from '../../ui/focus-fallback';
import { failureMessage, toastFailure, toastRefusal } from '../toasts/failure-toast';
import { toast } from '../toasts/toast-store';
import { ConfirmDialog } from './ConfirmDialog';
import { FilterBar } from './FilterBar';
import { ListPager } from './ListPager';
import { ResourceFormSheet } from './ResourceFormSheet';
import type {
  ActionInput,
  BatchChoice,
  BatchOutcome,
  ChoiceValue,
  FormMode,
  FormValues,
  ResourceDef,
} from './resource';
import { useListState } from './list-state';
import { useMayCall } from './permission-check';
import { useResourceList } from './use-resource';
import './admin-resource.css';

const DEFAULT_PAGE_SIZE = 10;
const PAGE_SIZES = [10, 20, 50, 100];

type Sheet<Row> = { mode: FormMode; record?: Row } | null;

interface PendingConfirm {
  title: string;
  message: string;
  note?: string;
  okText: string;
  danger: boolean;
  askPassword: boolean;
  choice?: BatchChoice;
  input?: ActionInput;
  ids: number[];
  /** A batch of the toolbar: its success says how many rows, its question is asked again for the rows a partial failure left. */
  batch?: (count: number) => string;
  /** Rows of this batch that an earlier try did, before a partial failure left the others: its success counts them too. */
  doneBefore?: number;
  keepsRows: boolean;
  run: (ids: number[], context: WriteContext, password?: string, value?: ChoiceValue) => Promise<ApiResult<unknown>>;
  success: string;
  failure: string;
}

function isBatchOutcome(data: unknown): data is BatchOutcome {
  return typeof data === 'object' && data !== null && 'done' in data && 'skipped' in data;
}

/**
 * The toast of a batch that succeeded, counting the whole batch (the rows of earlier tries too): a
 * success, or a warning when the server left rows (paid or closed since the list was read), naming them.
 */
function toastBatchDone(action: PendingConfirm, noun: string, data: unknown): void {
  const outcome = isBatchOutcome(data) ? data : { done: action.ids.length, skipped: [] };
  const done = (action.doneBefore ?? 0) + outcome.done;
  if (outcome.skipped.length === 0) {
    toast.success(action.success, `共 ${done} 项`);
    return;
  }
  const left = `${outcome.skipped.length} 项跳过：${outcome.skipped.join('；')}`;
  if (done === 0) toast.warning(`选中的${noun}均已跳过`, left);
  else toast.warning(action.success, `${done} 项成功，${left}`);
}

/** Every row of a (possibly nested) list, depth first. */
function flatten<Row>(rows: readonly Row[]): Row[] {
  return rows.flatMap((row) => [row, ...flatten(((row as { children?: Row[] }).children ?? []) as Row[])]);
}

function cellText(value: unknown): ReactNode {
  if (value === undefined || value === null || value === '') return '-';
  if (typeof value === 'boolean') return value ? '是' : '否';
  return String(value);
}

/** The selection column's cell as Semi draws it, the header's box named 全选本页 (Semi's: "Select all rows"). */
function namedSelectAll({
  inHeader,
  originNode,
}: {
  inHeader: boolean;
  originNode: ReactElement<{ 'aria-label'?: string }>;
}): ReactNode {
  return inHeader ? cloneElement(originNode, { 'aria-label': '全选本页' }) : originNode;
}

/**
 * The create/edit sheet and which one is open. Its state is its own: opening or closing it renders
 * the sheet alone, not the screen's table (a tree of 300 categories is one page of 300 rows, which
 * took seconds to render again). The screen opens it through `openerRef`.
 */
function FormSheetHost<Row extends object, Values extends FormValues>({
  resource,
  rows,
  openerRef,
}: {
  resource: ResourceDef<Row, Values>;
  rows: readonly Row[];
  openerRef: RefObject<(sheet: Sheet<Row>) => void>;
}) {
  const [sheet, setSheet] = useState<Sheet<Row>>(null);
  useLayoutEffect(() => {
    openerRef.current = setSheet;
  }, [openerRef]);
  if (!sheet) return null;
  return (
    <ResourceFormSheet
      key={sheet.record === undefined ? 'create' : String(resource.rowId(sheet.record))}
      resource={resource}
      mode={sheet.mode}
      record={sheet.record}
      rows={rows}
      onClose={() => setSheet(null)}
    />
  );
}

export function ResourceScreen<Row extends object, Values extends FormValues>({
  resource,
  headerExtra,
}: {
  resource: ResourceDef<Row, Values>;
  /** Content between the heading and the filters (hints, tabs). */
  headerExtra?: ReactNode;
}) {
  const paged = (resource.pageSize ?? DEFAULT_PAGE_SIZE) > 0;
  const { page, size, filters, setPage, setSize, applyFilters } = useListState(
    resource.filters,
    resource.pageSize || DEFAULT_PAGE_SIZE,
    PAGE_SIZES,
  );
  // The selection belongs to the rows on show: another page or filter (back and forward
  // included) starts with none, so that a batch never acts on rows out of sight.
  const where = JSON.stringify([page, size, filters]);
  const [selection, setSelection] = useState<{ where: string; ids: number[] }>({ where, ids: [] });
  const selected = selection.where === where ? selection.ids : [];
  const setSelected = (ids: number[]) => setSelection({ where, ids });
  const sheetOpener = useRef<(sheet: Sheet<Row>) => void>(() => undefined);
  const setSheet = (sheet: Sheet<Row>) => sheetOpener.current(sheet);
  const [pending, setPending] = useState<PendingConfirm | null>(null);
  // A confirmation done takes away what it was opened from (a deleted row's 删除; a batch button,
  // disabled once its rows are done): the keyboard goes to the list's 全选本页, or to 刷新列表.
  const panel = useRef<HTMLElement>(null);
  useFocusFallback(
    pending !== null,
    () =>
      firstFocusable(panel.current, 'input[aria-label="全选本页"]') ??
      firstFocusable(panel.current, 'button[aria-label="刷新列表"]'),
  );

  const query = useMemo(
    () => ({ page: paged ? page : 1, size: paged ? size : 0, filters }),
    [paged, page, size, filters],
  );
  // Rows an action that keeps them changed on this page (`ListQuery.keep`): read when the list is
  // asked, forgotten when the admin goes to another page or filter or refreshes the list.
  const kept = useRef<{ where: string; ids: number[] }>({ where, ids: [] });
  const keptHere = () => (kept.current.where === where ? kept.current.ids : []);
  const list = useResourceList(resource, query, keptHere);
  const rows = useMemo(() => list.data?.rows ?? [], [list.data]);
  // A page left empty (its last rows deleted, or an old link past the last page) goes to the page
  // that is now the last, in its place in the history: 暂无 would say there are none at all.
  const lastPage = Math.max(1, Math.ceil((list.data?.total ?? 0) / size));
  const pastLast = paged && list.isSuccess && !list.isPlaceholderData && rows.length === 0 && page > lastPage;
  useEffect(() => {
    if (pastLast) setPage(lastPage, { replace: true });
  }, [pastLast, lastPage, setPage]);
  const tableRows = useMemo(() => (resource.arrange ? resource.arrange(rows) : rows), [resource, rows]);
  const allRows = useMemo(() => flatten(tableRows), [tableRows]);
  const idPrefix = `admin-${resource.key}`;
  const may = useMayCall();
  const canCreate = Boolean(resource.create && resource.form) && may(resource.requires?.create);
  const createLabel = resource.createLabel ?? `新建${resource.noun}`;
  const canUpdate = Boolean(resource.update && resource.form) && may(resource.requires?.update);
  const batchActions = (resource.batchActions ?? []).filter((action) => may(action.requires));

  const confirmRun = useMutation({
    mutationFn: async (
      { action, password, value }: { action: PendingConfirm; password?: string; value?: ChoiceValue },
      context,
    ) => {
      // Before the write, whose refresh of the list must answer them already.
      if (action.keepsRows) kept.current = { where, ids: [...new Set([...keptHere(), ...action.ids])] };
      return unwrap(await action.run(action.ids, context, password, value));
    },
    onSuccess: (data, { action }) => {
      if (action.batch) toastBatchDone(action, resource.noun, data);
      else toast.success(action.success);
      setPending(null);
      setSelected([]);
    },
    onError: (error, { action }) => {
      // Rows a batch left undone stay selected, and the dialog asks for them alone: 确定 again
      // does not send again the rows already done. Its toast counts the whole batch, the rows
      // earlier tries did too.
      const shortfall = batchShortfall(error);
      if (!shortfall) {
        toastFailure(action.failure, error);
        return;
      }
      const ids = [...shortfall.left];
      const done = (action.doneBefore ?? 0) + shortfall.done;
      if (ids.length !== action.ids.length) {
        setSelected(ids);
        setPending({
          ...action,
          ids,
          doneBefore: done,
          message: action.batch ? action.batch(ids.length) : action.message,
        });
      }
      if (!answeredBySigningInAgain(error))
        toastRefusal(
          action.failure,
          `${done} 项成功，${ids.length} 项失败：${failureMessage(error) ?? ''}。已保留失败的 ${ids.length} 项`,
        );
    },
  });

  const remove = may(resource.requires?.remove) ? resource.remove : undefined;
  /** Asks to delete one row (its 删除) or the selected ones (批量删除, a batch). */
  const askDelete = (targets: Row[], batch: boolean) => {
    if (!remove) return;
    const ids = targets.map(resource.rowId);
    const one = targets.length === 1 ? targets[0] : undefined;
    const final = resource.deletion?.recoverable ? '' : '此操作不可恢复。';
    const many = (count: number) => `确定删除选中的 ${count} ${resource.counter ?? '个'}${resource.noun}吗？${final}`;
    setPending({
      title: `删除${resource.noun}`,
      message: one ? `确定删除${resource.noun}“${resource.rowLabel(one)}”吗？${final}` : many(ids.length),
      batch: batch ? many : undefined,
      note: resource.deletion?.note,
      okText: '删除',
      danger: true,
      askPassword: resource.deletion?.password === true,
      ids,
      keepsRows: false,
      run: (targetIds, context, password) => remove(targetIds, { password }, context),
      success: '删除成功',
      failure: '删除失败',
    });
  };

  const selectedRows = allRows.filter((row) => selected.includes(resource.rowId(row)));
  const batchDeletable = selectedRows.filter((row) => !resource.deletion?.blocked?.(row));
  const selectable = Boolean(remove) || batchActions.length > 0;
  const canEdit = (row: Row) => canUpdate && (resource.editable?.(row) ?? true);
  const rowActions =
    resource.rowActionsRequire && !resource.rowActionsRequire.some((path) => may(path))
      ? undefined
      : resource.rowActions;
  const rowCommands = (row: Row) => (resource.rowCommands?.(row) ?? []).filter((command) => may(command.requires));

  const columns: ColumnProps<Row>[] = [
    ...resource.columns.map((column): ColumnProps<Row> => ({
      title: column.title,
      dataIndex: column.key,
      key: column.key,
      width: column.width,
      render: (_value: unknown, row: Row) =>
        column.render ? column.render(row) : cellText((row as Record<string, unknown>)[column.key]),
    })),
  ];
  // A row command the user may not run is left out; with none left on any row (and no edit, delete
  // or actions of the feature's own), no empty 操作 column either.
  const hasRowActions = Boolean(
    rowActions || canUpdate || remove || allRows.some((row) => rowCommands(row).length > 0),
  );
  if (hasRowActions) {
    columns.push({
      title: '操作',
      key: 'actions',
      // Sticks to the table's right edge (admin-resource.css): a table wider than the screen
      // scrolls under it, and the actions stay in reach.
      className: 'app-resource-table__actions',
      render: (_value: unknown, row: Row) => {
        const editable = canEdit(row);
        const blocked = resource.deletion?.blocked?.(row);
        const label = resource.rowLabel(row);
        return (
          <div className="app-resource-actions">
            {rowActions?.(row)}
            {rowCommands(row).map((command) => (
              <Button
                key={command.key}
                size="small"
                theme="borderless"
                type={command.danger ? 'danger' : 'primary'}
                aria-label={`${command.label}“${label}”`}
                onClick={() =>
                  setPending({
                    title: command.label,
                    message: command.confirm,
                    okText: '确定',
                    danger: command.danger === true,
                    askPassword: false,
                    input: command.input,
                    ids: [resource.rowId(row)],
                    keepsRows: command.keepsRow === true,
                    run: (_ids, context, _password, value) =>
                      command.run(context, typeof value === 'string' ? value : undefined),
                    success: command.success,
                    failure: `${command.label}失败`,
                  })
                }
              >
                {command.label}
              </Button>
            ))}
            {editable && (
              <Button
                size="small"
                theme="borderless"
                icon={<IconEdit />}
                aria-label={`编辑“${label}”`}
                onClick={() => setSheet({ mode: 'edit', record: row })}
              >
                编辑
              </Button>
            )}
            {remove && (resource.editable?.(row) ?? true) && (
              <Button
                size="small"
                theme="borderless"
                type="danger"
                icon={<IconDelete />}
                // Not `disabled`: a tap on a phone (which shows no title) gets the reason why it
                // cannot be deleted, and a screen reader its description.
                className={blocked ? 'app-resource-action--blocked' : undefined}
                aria-description={blocked}
                title={blocked}
                aria-label={`删除“${label}”`}
                onClick={() => (blocked ? toast.warning(`不能删除${resource.noun}`, blocked) : askDelete([row], false))}
              >
                删除
              </Button>
            )}
          </div>
        );
      },
    });
  }

  const refresh = () => {
    kept.current = { where, ids: [] };
    void list.refetch();
  };

  const total = list.data?.total ?? 0;
  return (
    <div className="app-resource" data-resource={resource.key}>
      <div className="app-resource__head">
        <h1 className="app-admin-page__title">{resource.title}</h1>
        {headerExtra}
      </div>
      <section className="app-panel" ref={panel}>
        {resource.filters && resource.filters.length > 0 && (
          <FilterBar idPrefix={idPrefix} filters={resource.filters} applied={filters} onApply={applyFilters} />
        )}
        <div className="app-resource-toolbar" role="toolbar" aria-label={`${resource.noun}操作`}>
          {canCreate && (
            <Button type="primary" theme="solid" icon={<IconPlus />} onClick={() => setSheet({ mode: 'create' })}>
              {createLabel}
            </Button>
          )}
          {batchActions.map((action) => {
            const targets = action.applies ? selectedRows.filter(action.applies).map(resource.rowId) : selected;
            return (
              <Button
                key={action.key}
                type={action.danger ? 'danger' : 'tertiary'}
                disabled={targets.length === 0}
                onClick={() =>
                  setPending({
                    title: action.label,
                    message: action.confirm(targets.length),
                    okText: '确定',
                    danger: action.danger === true,
                    askPassword: false,
                    choice: action.choice,
                    input: action.input,
                    ids: targets,
                    batch: action.confirm,
                    keepsRows: action.keepsRows === true,
                    run: (ids, context, _password, value) => action.run(ids, context, value),
                    success: action.success,
                    failure: `${action.label}失败`,
                  })
                }
              >
                {action.label}
                {action.applies && selected.length > 0 ? `（${targets.length}）` : ''}
              </Button>
            );
          })}
          {remove && (
            <Button
              type="danger"
              icon={<IconDelete />}
              disabled={batchDeletable.length === 0}
              onClick={() => askDelete(batchDeletable, true)}
            >
              批量删除{selected.length > 0 ? `（${batchDeletable.length}）` : ''}
            </Button>
          )}
          <span className="app-resource-toolbar__spacer" />
          {/* In the page before anything is selected, so that screen readers announce the count
              (ticking a row changed only the batch button's text). */}
          {selectable && (
            <span className="app-resource-toolbar__selection" role="status">
              {selected.length > 0 ? `已选择 ${selected.length} 项` : ''}
            </span>
          )}
          <Button
            theme="borderless"
            icon={<IconRefresh />}
            aria-label="刷新列表"
            loading={list.isFetching && !list.isPending}
            onClick={refresh}
          />
        </div>
        {list.isError && !list.data ? (
          <ErrorState
            message={errorMessage(list.error, `${resource.noun}列表加载失败`)}
            onRetry={() => void list.refetch()}
          />
        ) : (
          <Table<Row>
            className="app-resource-table"
            size="small"
            aria-label={`${resource.noun}列表`}
            rowKey={(row?: Row) => (row === undefined ? '' : String(resource.rowId(row)))}
            columns={columns}
            dataSource={tableRows}
            loading={list.isPending || (list.isFetching && list.isPlaceholderData)}
            defaultExpandAllRows={Boolean(resource.arrange)}
            expandAllRows={Boolean(resource.arrange)}
            empty={
              list.isPending ? (
                <LoadingState title={`正在加载${resource.noun}…`} />
              ) : Object.keys(filters).length > 0 ? (
                // 暂无 would say there are none at all, where only the filters find none.
                <EmptyState title={`当前筛选条件下没有${resource.noun}`} illustration="noResult">
                  <Button onClick={() => applyFilters({})}>清除筛选条件</Button>
                </EmptyState>
              ) : canCreate ? (
                <EmptyState title={`暂无${resource.noun}`} description={`点击上方“${createLabel}”添加。`} />
              ) : (
                // The picture with a + only where the list offers to add one (orders, reports: never).
                <EmptyState title={`暂无${resource.noun}`} illustration="noResult" />
              )
            }
            rowSelection={
              selectable
                ? {
                    selectedRowKeys: selected.map(String),
                    onChange: (keys?: (string | number)[]) => setSelected((keys ?? []).map(Number)),
                    getCheckboxProps: (row: Row) => ({
                      disabled: resource.editable ? !resource.editable(row) : false,
                      'aria-label': `选择“${resource.rowLabel(row)}”`,
                    }),
                    renderCell: namedSelectAll,
                  }
                : undefined
            }
            pagination={false}
          />
        )}
        {paged && list.data && (
          <ListPager page={page} size={size} total={total} sizes={PAGE_SIZES} onPage={setPage} onSize={setSize} />
        )}
        {list.isError && list.data && (
          <p className="app-field__error" role="alert">
            {errorMessage(list.error, '刷新失败')}
          </p>
        )}
      </section>
      <FormSheetHost resource={resource} rows={allRows} openerRef={sheetOpener} />
      {pending && (
        <ConfirmDialog
          title={pending.title}
          message={pending.message}
          note={pending.note}
          okText={pending.okText}
          danger={pending.danger}
          askPassword={pending.askPassword}
          choice={pending.choice}
          input={pending.input}
          busy={confirmRun.isPending}
          onConfirm={(password, value) => confirmRun.mutate({ action: pending, password, value })}
          onCancel={() => setPending(null)}
        />
      )}
    </div>
  );
}
