// The admin's permissions (/admin/user/permission): every permission row, grouped by service,
// with its method and path; titles and descriptions are editable (method and path are fixed
// by the backend).
import { httpMethodOptions } from '../../../../shared/constants';
import { grpcPermissionPath, permissionsToTree } from '../../../../shared/permissions';
import type { Permission } from '../../../../shared/types/permission';
import { DateCell } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { listPermissions, permissionKeys, updatePermission } from './api';

/** A permission row, or (negative id) the heading row of a service. */
export type PermissionRow = Permission & { children?: PermissionRow[]; rows?: number };

type Values = { title: string; description: string; method: string; path: string };

const METHOD_COLORS: Readonly<Record<string, 'blue' | 'green' | 'orange' | 'red' | 'violet'>> = {
  GRPC: 'violet',
  GET: 'green',
  POST: 'blue',
  PUT: 'orange',
  DELETE: 'red',
};

/** The rows under one heading row per service, in the order of the shared permission groups. */
export function groupByService(rows: readonly Permission[]): PermissionRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return permissionsToTree(rows).map((node, index) => ({
    id: -(index + 1),
    title: node.label,
    path: node.key,
    rows: node.children.length,
    children: node.children.map(
      (child) => byId.get(child.id) ?? { id: child.id, title: child.label, path: child.path },
    ),
  }));
}

const isHeading = (row: PermissionRow) => (row.id ?? 0) < 0;

export const permissionResource: ResourceDef<PermissionRow, Values> = {
  key: 'permission',
  title: '权限管理',
  noun: '权限',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.title || row.path || '',
  pageSize: 0,
  columns: [
    {
      key: 'title',
      title: '名称',
      render: (row) =>
        isHeading(row) ? (
          <strong>
            {row.title} <span className="app-resource-muted">（{row.rows} 项）</span>
          </strong>
        ) : (
          row.title || <span className="app-resource-muted">未命名</span>
        ),
    },
    {
      key: 'method',
      title: '方法',
      width: 90,
      render: (row) => {
        if (isHeading(row)) return null;
        const method = (row.method || 'GRPC').toUpperCase();
        return <Tag color={METHOD_COLORS[method] ?? 'grey'}>{method}</Tag>;
      },
    },
    { key: 'path', title: '路径', render: (row) => <span className="app-resource-code">{row.path}</span> },
    { key: 'description', title: '描述', render: (row) => row.description ?? '' },
    {
      key: 'updated_at',
      title: '更新时间',
      width: 140,
      render: (row) => (isHeading(row) ? null : <DateCell value={row.updated_at} />),
    },
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '名称或描述' },
    { kind: 'select', name: 'method', label: '方法', options: httpMethodOptions },
  ],
  listKey: permissionKeys.admin,
  list: ({ filters }) =>
    listPage(
      listPermissions({ wd: keyword(filters.wd), method: asList(filters.method as string | undefined) }),
      (r) => r.permission,
    ),
  arrange: groupByService,
  editable: (row) => !isHeading(row),
  form: {
    fields: [
      { name: 'method', label: '方法', kind: 'text', readOnly: true, half: true },
      { name: 'path', label: '路径', kind: 'text', readOnly: true },
      { name: 'title', label: '名称', kind: 'text', required: true, maxLength: 64 },
      { name: 'description', label: '描述', kind: 'textarea', maxLength: 255 },
    ],
    initial: (row) => ({
      title: row?.title ?? '',
      description: row?.description ?? '',
      method: row?.method ?? '',
      path: row?.path ?? '',
    }),
  },
  update: (values, row, context) =>
    updatePermission({ id: row.id, title: values.title.trim(), description: values.description.trim() }, context),
  requires: { update: grpcPermissionPath('PermissionAPI', 'UpdatePermission') },
};
