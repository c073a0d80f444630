// The admin's roles (/admin/user/group): user groups with their member rights; 权限 opens
// the sheet that grants them admin permissions.
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Group } from '../../../../shared/types/group';
import { dateColumn, StackCell } from '../../kit/admin-resource/cells';
import { keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { IconKey } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { Tag } from '../../ui/semi-extra';
import { groupKeys, groupWrites, listGroups } from './api';

type Values = {
  title: string;
  color: string;
  description: string;
  sort: number | undefined;
  is_default: boolean;
  is_display: boolean;
  enable_upload: boolean;
  enable_document_review: boolean;
  enable_comment: boolean;
  enable_comment_approval: boolean;
  enable_article: boolean;
  enable_article_approval: boolean;
};

const RIGHTS: readonly { name: keyof Values & `enable_${string}`; label: string; short: string }[] = [
  { name: 'enable_upload', label: '允许上传文档', short: '上传' },
  { name: 'enable_document_review', label: '上传的文档需要审核', short: '文档审核' },
  { name: 'enable_comment', label: '允许发表评论', short: '评论' },
  { name: 'enable_comment_approval', label: '评论需要审核', short: '评论审核' },
  { name: 'enable_article', label: '允许发布文章', short: '文章' },
  { name: 'enable_article_approval', label: '文章需要审核', short: '文章审核' },
];

const toBody = (v: Values): Group => ({
  title: v.title.trim(),
  color: v.color.trim(),
  description: v.description.trim(),
  sort: v.sort ?? 0,
  is_default: v.is_default,
  is_display: v.is_display,
  ...Object.fromEntries(RIGHTS.map((r) => [r.name, v[r.name]])),
});

/** What 权限 calls: only its holders (and the super user) see the button. */
export const GRANT_PERMISSIONS = grpcPermissionPath('GroupAPI', 'UpdateGroupPermission');

/** `onPermissions` is undefined for users who may not change grants. */
export function groupResource(onPermissions: ((group: Group) => void) | undefined): ResourceDef<Group, Values> {
  return {
    key: 'group',
    title: '角色管理',
    noun: '角色',
    rowId: (row) => row.id ?? 0,
    rowLabel: (row) => row.title ?? '',
    columns: [
      { key: 'id', title: 'ID', width: 70 },
      {
        key: 'title',
        // The description under the name, the cell at least 12em wide: in a column of its own it had
        // the 61 px the others left at 1280 px, 系统超级管理员 on four lines, a sentence on a dozen.
        title: '名称 / 描述',
        render: (row) => (
          <span className="app-resource-wide">
            <StackCell
              main={
                <>
                  <Tag style={row.color ? { color: row.color } : undefined}>{row.title}</Tag>
                  {row.is_default && (
                    <Tag color="blue" size="small">
                      默认
                    </Tag>
                  )}
                </>
              }
              sub={row.description}
            />
          </span>
        ),
      },
      { key: 'user_count', title: '用户数', width: 70, render: (row) => row.user_count ?? 0 },
      {
        key: 'rights',
        title: '会员权限',
        render: (row) =>
          RIGHTS.filter((r) => row[r.name]).map((r) => (
            <Tag key={r.name} size="small" color="light-blue">
              {r.short}
            </Tag>
          )),
      },
      { key: 'is_display', title: '显示标识', width: 80, render: (row) => (row.is_display ? '是' : '否') },
      { key: 'sort', title: '排序', width: 60, render: (row) => row.sort ?? 0 },
      dateColumn('created_at', '创建时间'),
    ],
    filters: [{ kind: 'keyword', name: 'wd', label: '名称' }],
    listKey: groupKeys.admin,
    list: ({ page, size, filters }) => listPage(listGroups({ page, size, wd: keyword(filters.wd) }), (r) => r.group),
    form: {
      fields: [
        { name: 'title', label: '名称', kind: 'text', required: true, maxLength: 64 },
        { name: 'color', label: '标识颜色', kind: 'color', half: true, hint: '留空使用默认颜色' },
        { name: 'sort', label: '排序', kind: 'number', integer: true, half: true, hint: '数字越大越靠前' },
        { name: 'description', label: '描述', kind: 'textarea', maxLength: 255 },
        { name: 'is_default', label: '默认角色（新注册用户加入）', kind: 'switch', half: true },
        { name: 'is_display', label: '在用户名旁显示标识', kind: 'switch', half: true },
        ...RIGHTS.map((r) => ({ name: r.name, label: r.label, kind: 'switch' as const, half: true })),
      ],
      initial: (row) => ({
        title: row?.title ?? '',
        color: row?.color ?? '',
        description: row?.description ?? '',
        sort: row?.sort ?? 0,
        is_default: row?.is_default === true,
        is_display: row ? row.is_display === true : true,
        // New roles start with MOREDOC's defaults: members may comment and publish articles.
        enable_upload: row?.enable_upload === true,
        enable_document_review: row?.enable_document_review === true,
        enable_comment: row ? row.enable_comment === true : true,
        enable_comment_approval: row?.enable_comment_approval === true,
        enable_article: row ? row.enable_article === true : true,
        enable_article_approval: row?.enable_article_approval === true,
      }),
    },
    create: async (values, context) => {
      const body = toBody(values);
      const created = await groupWrites.create(body, context);
      // MOREDOC ignores the member rights on creation: set them with an update when it did.
      if (!created.ok || !created.data.id || RIGHTS.every((r) => (created.data[r.name] === true) === body[r.name]))
        return created;
      return groupWrites.update({ ...body, id: created.data.id, created_at: created.data.created_at }, context);
    },
    update: (values, row, context) =>
      groupWrites.update({ ...toBody(values), id: row.id, created_at: row.created_at }, context),
    remove: (ids, _confirmation, context) => groupWrites.remove(ids, context),
    deletion: {
      blocked: (row) =>
        row.is_default ? '默认角色不能删除' : (row.user_count ?? 0) > 0 ? '角色下还有用户，不能删除' : undefined,
    },
    rowActions: onPermissions
      ? (row) => (
          <Button
            size="small"
            theme="borderless"
            icon={<IconKey />}
            aria-label={`设置“${row.title ?? ''}”的权限`}
            onClick={() => onPermissions(row)}
          >
            权限
          </Button>
        )
      : undefined,
    requires: {
      create: grpcPermissionPath('GroupAPI', 'CreateGroup'),
      update: grpcPermissionPath('GroupAPI', 'UpdateGroup'),
      remove: grpcPermissionPath('GroupAPI', 'DeleteGroup'),
    },
  };
}
