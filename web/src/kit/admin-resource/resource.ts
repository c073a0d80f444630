// What an admin screen says about its resource, once: how to list it (with filters and
// paging), which columns to show, which form fields to edit it with (and how to check them
// before sending), and which of its feature's writes create, update and delete it. Those
// writes mark stale what they change (the feature's own keys, the admin list among them), so
// a resource never names the queries to refresh. `ResourceScreen` renders the rest: list,
// filters, create/edit side sheet, delete with confirmation, batch actions, paging,
// loading/empty/error states and toasts.
import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ApiResult } from '../../api/client';
import type { WriteContext } from '../../api/query-client';
import type { ImageUploadTarget } from '../image-upload/ImageUploadInput';

export type FormValues = Record<string, unknown>;

export type FormMode = 'create' | 'edit';

export interface SelectOption {
  value: string | number;
  label: string;
}

export interface TreeOption {
  value: number;
  label: string;
  disabled?: boolean;
  children?: TreeOption[];
}

/** What option lists and checks may depend on: the form's mode, the edited row, the loaded rows. */
export interface FieldContext<Row = unknown> {
  mode: FormMode;
  record?: Row;
  rows: readonly Row[];
}

export interface CustomInputProps {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  invalid: boolean;
  /** The field's error or hint, for the input's aria-describedby. */
  describedBy?: string;
}

interface FieldBase<Values extends FormValues, Row> {
  name: Extract<keyof Values, string>;
  label: string;
  placeholder?: string;
  /** Help text under the input. */
  hint?: string;
  /** Empty → 请输入{label} / 请选择{label} / 请上传{label}. */
  required?: boolean;
  /** The modes the field appears in (default both). */
  modes?: readonly FormMode[];
  /** Shown but not editable, e.g. a username after creation. */
  readOnly?: boolean | ((mode: FormMode) => boolean);
  /** Half-width fields sit two per row. */
  half?: boolean;
  /** A last check of a non-empty value; returns the message to show. */
  validate?: (value: never, values: Values, context: FieldContext<Row>) => string | undefined;
}

export type FieldDef<Values extends FormValues = FormValues, Row = unknown> = FieldBase<Values, Row> &
  (
    | {
        kind: 'text' | 'password' | 'textarea';
        minLength?: number;
        maxLength?: number;
        pattern?: { regex: RegExp; message: string };
      }
    | { kind: 'number'; min?: number; max?: number; integer?: boolean }
    | { kind: 'switch' }
    | { kind: 'color' }
    | {
        kind: 'select';
        options: readonly SelectOption[] | ((context: FieldContext<Row>) => readonly SelectOption[]);
        multiple?: boolean;
      }
    | { kind: 'tree-select'; options: (context: FieldContext<Row>) => readonly TreeOption[] }
    | { kind: 'image'; upload: ImageUploadTarget }
    | { kind: 'custom'; render: (props: CustomInputProps) => ReactNode; emptyMessage?: string }
  );

export interface ColumnDef<Row> {
  key: string;
  title: string;
  /**
   * Its width in px, which is also its least: the table never narrows it. Columns without one
   * share the rest. At 1280 px the panel has 957 px for the table, the checkboxes (48) and the
   * actions included; a table wider than that slides its last columns under the actions.
   */
  width?: number;
  /** Default: the row's value under `key`. */
  render?: (row: Row) => ReactNode;
}

export type FilterValue = string | number | boolean | undefined;
export type FilterValues = Record<string, FilterValue>;

export interface CustomFilterProps {
  id: string;
  value: FilterValue;
  onChange: (value: FilterValue) => void;
}

export type FilterDef =
  | { kind: 'keyword'; name: string; label: string; placeholder?: string }
  | {
      kind: 'select';
      name: string;
      label: string;
      options: readonly { value: string | number | boolean; label: string }[];
    }
  /** Any input (a user picker); its changes apply at once. */
  | { kind: 'custom'; name: string; label: string; render: (props: CustomFilterProps) => ReactNode }
  /** A range of days: `from` gets the first day's start, `to` the start of the day after the last (ISO 8601). */
  | { kind: 'date-range'; name: string; label: string; from: string; to: string };

export interface ListQuery {
  page: number;
  size: number;
  filters: FilterValues;
  /**
   * Rows an action that keeps them (`keepsRows`) changed on this page: the list answers them too,
   * in their place, where its filters no longer match them. Empty for most resources.
   */
  keep: readonly number[];
}

export interface ListPage<Row> {
  rows: Row[];
  total: number;
}

/** How a list whose rows change by themselves is asked again (`ResourceDef.polling`). */
export type ListPolling<Row> = Pick<UseQueryOptions<ListPage<Row>>, 'refetchInterval' | 'refetchOnWindowFocus'>;

export interface DeleteConfirmation {
  /** The admin's own password, when the resource asks for it (users). */
  password?: string;
}

/** Text the confirmation dialog of an action asks for (a reject reason, a reply), handed to its `run`. */
export interface ActionInput {
  label: string;
  initial?: string;
  placeholder?: string;
  maxLength: number;
  rows?: number;
  /** Empty → this message; else the text may be empty. */
  requiredMessage?: string;
}

/** A confirmed change of one row besides edit and delete (e.g. end a punishment). */
export interface RowCommand {
  key: string;
  label: string;
  /** Question of the confirmation dialog. */
  confirm: string;
  /** Text the dialog asks for (`run` gets it, trimmed). */
  input?: ActionInput;
  run: (context: WriteContext, input?: string) => Promise<ApiResult<unknown>>;
  success: string;
  danger?: boolean;
  /** The row stays on show after it, its filters matched or not (see `ListQuery.keep`). */
  keepsRow?: boolean;
  /** Permission path the command needs (hidden without it). */
  requires?: string;
}

/** A value a batch action needs (a category, a language), chosen in its confirmation dialog. */
export interface BatchChoice {
  label: string;
  options: readonly SelectOption[];
  multiple?: boolean;
  /** Shown when nothing is chosen, e.g. 请选择分类. */
  emptyMessage: string;
}

export type ChoiceValue = string | number | (string | number)[];

/**
 * What a batch may answer in place of a bare success: how many rows it did, and each row it
 * left named with why (订单 VIP003 已支付), when the rows changed since the list was read.
 */
export interface BatchOutcome {
  done: number;
  skipped: readonly string[];
}

/** An action on the selected rows besides batch delete (e.g. end punishments). */
export interface BatchAction<Row = never> {
  key: string;
  label: string;
  /**
   * The rows it is for (open reports, pending orders): of the selected rows only these are sent,
   * and the button counts them, as 批量删除 does; without it, every selected row.
   */
  applies?: (row: Row) => boolean;
  /** Question of the confirmation dialog; `count` rows are selected. */
  confirm: (count: number) => string;
  /** A value to choose before the action runs; `run` receives it. */
  choice?: BatchChoice;
  /** Or text the dialog asks for (`run` receives it, trimmed). */
  input?: ActionInput;
  /** Its answer may be a `BatchOutcome`: the success then counts the rows done and names those left. */
  run: (ids: number[], context: WriteContext, value?: ChoiceValue) => Promise<ApiResult<unknown>>;
  success: string;
  danger?: boolean;
  /** The rows stay on show after it, their filters matched or not (see `ListQuery.keep`). */
  keepsRows?: boolean;
  /** Permission path the action needs (hidden without it). */
  requires?: string;
}

export interface ResourceDef<Row, Values extends FormValues = FormValues> {
  /** Names the screen's elements (ids, forms), unique per screen. */
  key: string;
  /** Heading of the screen. */
  title: string;
  /** What one row is called: 新建{noun}, 编辑{noun}, 删除{noun}. */
  noun: string;
  /** The measure word of the noun in a count: 删除选中的 3 篇文档 (default 个). */
  counter?: string;
  /** The create button and sheet say this instead of 新建{noun} (e.g. 开通会员). */
  createLabel?: string;
  /** The create sheet's button and its failure toast say this instead of 创建 (开通, 开通失败). */
  createVerb?: string;
  rowId: (row: Row) => number;
  /** How a row is named in confirmations. */
  rowLabel: (row: Row) => string;
  columns: readonly ColumnDef<Row>[];
  filters?: readonly FilterDef[];
  /** Rows per page; 0 = the list call returns everything (trees, short lists). */
  pageSize?: number;
  /**
   * Where the feature keeps its admin lists in react-query (e.g. `friendlinkKeys.admin`); the
   * screen adds the page, size and filters. The feature's writes mark it stale.
   */
  listKey: QueryKey;
  list: (query: ListQuery) => Promise<ListPage<Row>>;
  /**
   * Rows still changing on the server by themselves (documents converting): when and how often
   * the list is asked again, as its feature's rule says (React Query's `refetchInterval` and
   * `refetchOnWindowFocus` for the list's query). Without it, only the feature's writes refresh it.
   */
  polling?: ListPolling<Row>;
  /** Turns the loaded rows into a tree (rows with `children`), for nested resources. */
  arrange?: (rows: Row[]) => Row[];
  form?: {
    fields: readonly FieldDef<Values, Row>[];
    /** Values of the create form (no row) or of the edit form of `row`. */
    initial: (row?: Row) => Values;
  };
  /** The feature's writes (see `invalidateAfter`); `context` carries the client they refresh. */
  create?: (values: Values, context: WriteContext) => Promise<ApiResult<unknown>>;
  /**
   * The toast of a successful create, when 创建成功 / {noun}已创建 does not say what happened
   * (开通成功 / 已为 amy 开通会员); `values` are those sent.
   */
  createdToast?: (values: Values, context: WriteContext) => { title: string; description?: string };
  update?: (values: Values, row: Row, context: WriteContext) => Promise<ApiResult<unknown>>;
  remove?: (ids: number[], confirmation: DeleteConfirmation, context: WriteContext) => Promise<ApiResult<unknown>>;
  deletion?: {
    /** Ask for the admin's password before deleting (contract: DeleteUser). */
    password?: boolean;
    /** Extra sentence of the confirmation (what else goes, what is kept). */
    note?: string;
    /** Deleted rows can be brought back (a recycle bin): the question does not say it is final. */
    recoverable?: boolean;
    /** Why this row cannot be deleted, or undefined when it can. */
    blocked?: (row: Row) => string | undefined;
  };
  /** Rows that cannot be edited (e.g. group headings). */
  editable?: (row: Row) => boolean;
  batchActions?: readonly BatchAction<Row>[];
  /** Extra buttons in a row's 操作 cell, before 编辑 and 删除. */
  rowActions?: (row: Row) => ReactNode;
  /**
   * The permission paths of the `rowActions` buttons, when each needs one: a user who holds none
   * gets no row actions, so the screen knows beforehand that they would render nothing (and, with
   * no other action, draws no empty 操作 column). Without it they are always offered.
   */
  rowActionsRequire?: readonly string[];
  /** Confirmed one-row changes, shown as buttons before 编辑 and 删除. */
  rowCommands?: (row: Row) => readonly RowCommand[];
  /**
   * Permission paths (`/api.v1.<Service>/<Rpc>`) that 新建, 编辑 and 删除 call; a user who does
   * not hold one does not see its button (the backend refuses the call anyway).
   */
  requires?: { create?: string; update?: string; remove?: string };
}
