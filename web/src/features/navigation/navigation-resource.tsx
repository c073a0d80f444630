// The admin's navigation (/admin/navigation): the public header's navigation tree. Every item
// is listed, enabled or not; an item under a disabled parent is hidden on the site with its
// parent (docs/product.md §3).
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Navigation } from '../../../../shared/types/navigation';
import { unwrap } from '../../api/client';
import { EnabledTag } from '../../kit/admin-resource/cells';
import { keyword } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { parentField, titledTree } from '../../kit/admin-resource/tree';
import { checkLink } from '../../kit/admin-resource/validation';
import { Tag } from '../../ui/semi-extra';
import { fetchNavigationList, navigationKeys, navigationWrites } from './api';

export type NavigationRow = Navigation & {
  /** Enabled itself but under a disabled ancestor, so not shown on the site. */
  hiddenByParent?: boolean;
};

const TARGETS = [
  { value: '_self', label: '当前窗口' },
  { value: '_blank', label: '新窗口' },
];

type Values = {
  title: string;
  href: string;
  target: string;
  color: string;
  sort: number | undefined;
  enable: boolean;
  parent_id: number | undefined;
  description: string;
};

/** Marks the enabled items that a disabled ancestor hides. */
export function markHiddenByParent(items: readonly Navigation[]): NavigationRow[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const hidden = (item: Navigation): boolean => {
    const seen = new Set<number>();
    let parent = item.parent_id ? byId.get(item.parent_id) : undefined;
    while (parent && parent.id !== undefined && !seen.has(parent.id)) {
      if (parent.enable !== true) return true;
      seen.add(parent.id);
      parent = parent.parent_id ? byId.get(parent.parent_id) : undefined;
    }
    return false;
  };
  return items.map((item) => ({ ...item, hiddenByParent: item.enable === true && hidden(item) }));
}

const toBody = (v: Values): Navigation => ({
  title: v.title.trim(),
  href: v.href.trim(),
  target: v.target || '_self',
  color: v.color.trim(),
  sort: v.sort ?? 0,
  enable: v.enable,
  parent_id: v.parent_id ?? 0,
  description: v.description.trim(),
});

export const navigationResource: ResourceDef<NavigationRow, Values> = {
  key: 'navigation',
  title: '导航管理',
  noun: '导航',
  ...titledTree,
  columns: [
    {
      key: 'title',
      title: '名称',
      render: (row) => (
        <span style={row.color ? { color: row.color } : undefined}>
          {row.title}
          {row.fixed && (
            <Tag size="small" style={{ marginLeft: 6 }}>
              内置
            </Tag>
          )}
        </span>
      ),
    },
    { key: 'href', title: '链接', render: (row) => <span className="app-resource-code">{row.href}</span> },
    {
      key: 'target',
      title: '打开方式',
      width: 100,
      render: (row) => (row.target === '_blank' ? '新窗口' : '当前窗口'),
    },
    { key: 'sort', title: '排序', width: 90, render: (row) => row.sort ?? 0 },
    {
      key: 'enable',
      title: '状态',
      width: 130,
      render: (row) =>
        row.hiddenByParent ? <Tag color="orange">上级已禁用</Tag> : <EnabledTag enabled={row.enable} />,
    },
  ],
  filters: [{ kind: 'keyword', name: 'wd', label: '关键字', placeholder: '名称、链接或描述' }],
  listKey: navigationKeys.admin,
  list: async ({ filters }) => {
    const rows = markHiddenByParent(unwrap(await fetchNavigationList(keyword(filters.wd))).navigation ?? []);
    return { rows, total: rows.length };
  },
  form: {
    fields: [
      parentField('上级导航', '上级导航禁用时，其下级导航在前台也不显示'),
      { name: 'title', label: '名称', kind: 'text', required: true, maxLength: 64 },
      {
        name: 'href',
        label: '链接',
        kind: 'text',
        required: true,
        placeholder: '/library 或 https://',
        validate: (v: string) => checkLink(v, '链接', { sitePath: true }),
      },
      { name: 'target', label: '打开方式', kind: 'select', options: TARGETS, required: true, half: true },
      { name: 'color', label: '颜色', kind: 'color', half: true, hint: '留空使用默认颜色' },
      { name: 'sort', label: '排序', kind: 'number', integer: true, half: true, hint: '数字越大越靠前' },
      { name: 'enable', label: '启用', kind: 'switch', half: true },
      { name: 'description', label: '描述', kind: 'textarea', maxLength: 255 },
    ],
    initial: (row) => ({
      title: row?.title ?? '',
      href: row?.href ?? '',
      target: row?.target || '_self',
      color: row?.color ?? '',
      sort: row?.sort ?? 0,
      enable: row ? row.enable === true : true,
      parent_id: row?.parent_id ?? 0,
      description: row?.description ?? '',
    }),
  },
  create: (values, context) => navigationWrites.create(toBody(values), context),
  update: (values, row, context) =>
    navigationWrites.update({ ...toBody(values), id: row.id, created_at: row.created_at }, context),
  remove: (ids, _confirmation, context) => navigationWrites.remove(ids, context),
  deletion: {
    note: '其下级导航会一并删除。',
    blocked: (row) => (row.fixed ? '内置导航不能删除' : undefined),
  },
  requires: {
    create: grpcPermissionPath('NavigationAPI', 'CreateNavigation'),
    update: grpcPermissionPath('NavigationAPI', 'UpdateNavigation'),
    remove: grpcPermissionPath('NavigationAPI', 'DeleteNavigation'),
  },
};
