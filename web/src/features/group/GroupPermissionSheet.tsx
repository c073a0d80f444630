// A role's grants: every permission row as a tree by service (shared `permissionsToTree`).
// Checking a service checks all its rows, its list permission among them, which is what
// unlocks the service's admin pages. Saving replaces the role's grants.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { pageOwnPermissions, permissionsToTree, type PermissionTreeNode } from '../../../../shared/permissions';
import { adminRoutes } from '../../../../shared/routes';
import type { Group } from '../../../../shared/types/group';
import type { Permission } from '../../../../shared/types/permission';
import { errorMessage, unwrap } from '../../api/client';
import { groupPermissionsQuery, setGroupPermissions } from './api';
import { allPermissionsQuery } from '../permission/api';
import { IconSearch, IconTreeTriangleDown } from '../../ui/icons';
import { Button, Skeleton } from '../../ui/semi';
import { Input, Tag } from '../../ui/semi-extra';
import { SideSheet, Tree, type TreeNodeData } from '../../ui/semi-admin';
import { ErrorState } from '../../ui/states';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { sheetWidth } from '../../ui/fit';

function pageTitle(page: string, permissions: readonly Permission[]): string[] {
  const title = adminRoutes.find((r) => r.path === page)?.title;
  if (!title) return [];
  const own = pageOwnPermissions(page).map((path) => permissions.find((p) => p.path === path)?.title ?? path);
  return [own.length > 0 ? `${title}（另需“${own.join('”或“')}”）` : title];
}

const serviceKey = (node: PermissionTreeNode) => `service:${node.key}`;

/** The tree the dialog shows: services, then their permission rows (value = permission id). */
export function permissionTreeData(permissions: readonly Permission[]): TreeNodeData[] {
  return permissionsToTree(permissions).map((node) => ({
    key: serviceKey(node),
    value: serviceKey(node),
    // Plain-text labels keep the search box working; renderLabel adds the details.
    label: node.label,
    // The screens a granted list permission opens, by their titles; one that also needs a
    // permission of its own (短信管理) says which, or the menu's leaving it out would puzzle.
    pages: node.id > 0 ? node.pages.flatMap((page) => pageTitle(page, permissions)) : [],
    children: node.children.map((child) => ({
      key: String(child.id),
      value: String(child.id),
      label: child.label,
      path: child.path,
      method: child.method,
      isList: child.id === node.id,
    })),
  }));
}

function PermissionLabel({ label, node }: { label: string; node?: TreeNodeData }) {
  if (node?.path === undefined) {
    const pages = (node?.pages ?? []) as string[];
    return (
      <span className="app-permission-service">
        {label}
        {pages.length > 0 && <span className="app-resource-muted">（列表权限开放：{pages.join('、')}）</span>}
      </span>
    );
  }
  return (
    <span className="app-permission-leaf">
      {label}
      {node.isList === true && (
        <Tag size="small" color="blue">
          列表
        </Tag>
      )}
      <span className="app-resource-code app-resource-muted">
        {String(node.method)} {String(node.path)}
      </span>
    </span>
  );
}

/** Ids to save: the checked rows (service nodes are never sent, their rows are). */
export function grantedIds(checked: readonly string[]): number[] {
  return [...new Set(checked.map(Number).filter((id) => Number.isInteger(id) && id > 0))];
}

function GrantEditor({
  group,
  permissions,
  granted,
  onClose,
  onEdit,
}: {
  group: Group;
  permissions: Permission[];
  granted: number[];
  onClose: () => void;
  /** Told at the first change, so that the sheet no longer closes on a click beside it. */
  onEdit: () => void;
}) {
  const known = useMemo(() => new Set(permissions.map((p) => p.id)), [permissions]);
  const [checked, setChecked] = useState<string[]>(() => granted.filter((id) => known.has(id)).map(String));
  const treeData = useMemo(() => permissionTreeData(permissions), [permissions]);
  // Every row the tree shows: a role that administers the whole site (a new site's 超级管理员
  // holds nothing, docs/moredoc.md §11) is granted in one click rather than one per service.
  const everyRow = useMemo(
    () => treeData.flatMap((service) => (service.children ?? []).map((row) => String(row.value))),
    [treeData],
  );
  const choose = (value: string[]) => {
    setChecked(value);
    onEdit();
  };
  const save = useMutation({
    mutationFn: async (_: void, context) =>
      unwrap(await setGroupPermissions({ group_id: group.id ?? 0, permission_id: grantedIds(checked) }, context)),
    onSuccess: () => {
      toast.success('权限已保存', `角色“${group.title ?? ''}”的权限已更新`);
      onClose();
    },
    onError: (error) => toastFailure('保存权限失败', error),
  });
  return (
    <>
      <p className="app-resource-muted app-permission-hint">
        已选 {grantedIds(checked).length}{' '}
        项权限。勾选一个模块即授予其全部权限（含列表权限，开放对应的管理页面）；这些权限只应授予管理员角色。
      </p>
      <div className="app-permission-bulk">
        <Button size="small" onClick={() => choose(everyRow)} disabled={save.isPending}>
          全选
        </Button>
        <Button size="small" onClick={() => choose([])} disabled={save.isPending}>
          全不选
        </Button>
      </div>
      <Tree
        treeData={treeData}
        multiple
        leafOnly
        value={checked}
        onChange={(value) => choose(Array.isArray(value) ? value.map(String) : [])}
        filterTreeNode
        showFilteredOnly
        searchPlaceholder="搜索权限"
        // Semi's own search box and expand arrows are named "Filter Tree" and "Expand the tree item".
        searchRender={(inputProps) => <Input {...inputProps} prefix={<IconSearch />} aria-label="搜索权限" />}
        // (Semi gives the arrow its click and its class, which turns it while the service is folded.)
        expandIcon={<IconTreeTriangleDown role="button" aria-label="展开或收起" size="small" />}
        renderLabel={(label, node) => <PermissionLabel label={String(label ?? '')} node={node} />}
        aria-label="权限树"
      />
      <div className="app-resource-form__footer app-permission-footer">
        <Button onClick={onClose} disabled={save.isPending}>
          取消
        </Button>
        <Button type="primary" theme="solid" loading={save.isPending} onClick={() => save.mutate()}>
          保存权限
        </Button>
      </div>
    </>
  );
}

export function GroupPermissionSheet({ group, onClose }: { group: Group; onClose: () => void }) {
  const permissions = useQuery(allPermissionsQuery());
  const granted = useQuery(groupPermissionsQuery(group.id ?? 0));
  const title = `设置权限：${group.title ?? ''}`;
  const failed = permissions.error ?? granted.error;
  const [edited, setEdited] = useState(false);
  return (
    <SideSheet
      visible
      title={title}
      onCancel={onClose}
      width={sheetWidth(640)}
      // A stray click beside the sheet or Escape must not throw away the boxes ticked (取消 and ✕
      // still close it).
      maskClosable={!edited}
      closeOnEsc={!edited}
    >
      {failed ? (
        <ErrorState
          message={errorMessage(failed, '权限加载失败')}
          onRetry={() => {
            void permissions.refetch();
            void granted.refetch();
          }}
        />
      ) : permissions.data && granted.data ? (
        <GrantEditor
          group={group}
          permissions={permissions.data}
          granted={granted.data}
          onClose={onClose}
          onEdit={() => setEdited(true)}
        />
      ) : (
        <Skeleton.Paragraph rows={8} />
      )}
    </SideSheet>
  );
}
