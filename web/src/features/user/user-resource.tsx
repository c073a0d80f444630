// The admin's users (/admin/user/list): searchable by keyword, group and status; create with
// password and groups, edit groups, password and profile, add or take away credits, delete with the
// admin's own password.
import { DEFAULT_CREDIT_NAME } from '../../../../shared/constants';
import { grpcPermissionPath, SUPER_USER_ID } from '../../../../shared/permissions';
import type { Group } from '../../../../shared/types/group';
import type { User } from '../../../../shared/types/user';
import { unwrap } from '../../api/client';
import { DateCell, StackCell } from '../../kit/admin-resource/cells';
import { asList, keyword } from '../../kit/admin-resource/list-query';
import type { ColumnDef, ListQuery, ResourceDef } from '../../kit/admin-resource/resource';
import { Avatar } from '../../ui/Avatar';
import { Tag } from '../../ui/semi-extra';
import { createUser, deleteUsers, listUsers, updateUser, userKeys } from './api';
import { ADJUST_CREDIT, UserCreditAction } from './UserCreditAction';
import { checkEmail, checkMobile, checkPassword, checkUsername } from './validation';

/** The most rows one list call returns; status filtering pages through them locally. */
const MAX_LIST_SIZE = 1000;

/** Who is disabled: the users under an active 禁用账号 punishment (users have no status column). */
export type DisabledUsers = () => Promise<Set<number>>;

export type UserRow = User & {
  /** Under an active 禁用账号 punishment; undefined when the punishments cannot be read. */
  disabled?: boolean;
};

type Values = {
  username: string;
  password: string;
  email: string;
  group_id: number[];
  realname: string;
  mobile: string;
  identity: string;
  address: string;
  signature: string;
  remark: string;
};

const STATUS_OPTIONS = [
  { value: 'normal', label: '正常' },
  { value: 'disabled', label: '禁用' },
];

/** 正常 or 禁用, from the punishments; '-' when they could not be read. */
const statusColumn: ColumnDef<UserRow> = {
  key: 'status',
  title: '状态',
  width: 80,
  render: (row) =>
    row.disabled === undefined ? '-' : row.disabled ? <Tag color="red">禁用</Tag> : <Tag color="green">正常</Tag>,
};

/** A page of users with their status; filtering by status pages through the matching users here. */
async function listUserRows(
  { page, size, filters }: ListQuery,
  disabledUserIds: DisabledUsers | undefined,
): Promise<{ rows: UserRow[]; total: number }> {
  const wd = keyword(filters.wd);
  const groupIds = asList(filters.group_id as number | undefined);
  const status = filters.status as 'normal' | 'disabled' | undefined;
  if (!status || !disabledUserIds) {
    const [data, disabled] = await Promise.all([
      listUsers({ page, size, wd, group_id: groupIds }).then(unwrap),
      disabledUserIds?.().catch(() => undefined),
    ]);
    const rows = (data.user ?? []).map((u) => ({ ...u, disabled: disabled ? disabled.has(u.id ?? 0) : undefined }));
    return { rows, total: data.total ?? rows.length };
  }
  const disabled = await disabledUserIds();
  if (status === 'disabled' && disabled.size === 0) return { rows: [], total: 0 };
  const data = unwrap(
    await listUsers({
      page: 1,
      size: MAX_LIST_SIZE,
      wd,
      group_id: groupIds,
      id: status === 'disabled' ? [...disabled] : undefined,
    }),
  );
  const matching = (data.user ?? [])
    .map((u) => ({ ...u, disabled: disabled.has(u.id ?? 0) }))
    .filter((u) => u.disabled === (status === 'disabled'));
  return { rows: matching.slice((page - 1) * size, page * size), total: matching.length };
}

/**
 * The user screen for the admin `myId`, with the `groups` to pick from; `disabledUserIds` comes
 * from the punishments, undefined for an admin who may not read them (no 状态 column or filter then).
 */
export function userResource(
  groups: readonly Group[],
  myId: number | undefined,
  disabledUserIds: DisabledUsers | undefined,
  /** The site's name of its credits (魔豆), for the credits each user holds. */
  credits = DEFAULT_CREDIT_NAME,
): ResourceDef<UserRow, Values> {
  const groupOptions = groups.map((g) => ({ value: g.id ?? 0, label: g.title ?? '' }));
  const groupById = new Map(groups.map((g) => [g.id, g]));
  return {
    key: 'user',
    title: '用户管理',
    noun: '用户',
    counter: '位',
    rowId: (row) => row.id ?? 0,
    rowLabel: (row) => row.username ?? '',
    columns: [
      { key: 'id', title: 'ID', width: 70 },
      {
        key: 'username',
        title: '用户',
        render: (row) => (
          <span className="app-user-cell">
            <Avatar src={row.avatar} name={row.username ?? ''} />
            <StackCell
              main={
                <>
                  {row.username}
                  {row.realname && <span className="app-resource-muted">（{row.realname}）</span>}
                </>
              }
              sub={`${credits} ${row.credit_count ?? 0}`}
            />
          </span>
        ),
      },
      {
        key: 'group_id',
        title: '角色',
        render: (row) =>
          (row.group_id ?? []).map((id) => {
            const group = groupById.get(id);
            return (
              <Tag key={id} style={group?.color ? { color: group.color } : undefined}>
                {group?.title ?? `#${id}`}
              </Tag>
            );
          }),
      },
      { key: 'email', title: '邮箱' },
      ...(disabledUserIds ? [statusColumn] : []),
      {
        // One column for both times, the last sign-in under the registration: two columns of
        // 140 px left the user's name 42 px at 1280 px (us / er / 33).
        key: 'created_at',
        title: '注册 / 最后登录',
        width: 140,
        render: (row) => (
          <StackCell main={<DateCell value={row.created_at} />} sub={<DateCell value={row.login_at} />} />
        ),
      },
    ],
    filters: [
      { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '用户名、姓名、邮箱或手机' },
      { kind: 'select', name: 'group_id', label: '角色', options: groupOptions },
      ...(disabledUserIds ? [{ kind: 'select' as const, name: 'status', label: '状态', options: STATUS_OPTIONS }] : []),
    ],
    listKey: userKeys.admin,
    list: (query) => listUserRows(query, disabledUserIds),
    form: {
      fields: [
        {
          name: 'username',
          label: '用户名',
          kind: 'text',
          required: true,
          readOnly: (mode) => mode === 'edit',
          validate: (v: string) => checkUsername(v),
          hint: '3-32 个字符，不能是邮箱或手机号；创建后不能修改',
        },
        {
          name: 'password',
          label: '密码',
          kind: 'password',
          required: true,
          modes: ['create'],
          validate: (v: string) => checkPassword(v),
        },
        {
          name: 'password',
          label: '新密码',
          kind: 'password',
          modes: ['edit'],
          hint: '留空则不修改密码',
          validate: (v: string) => checkPassword(v, '新密码'),
        },
        {
          name: 'group_id',
          label: '角色',
          kind: 'select',
          multiple: true,
          required: true,
          options: groupOptions,
          // 超级管理员 is only a name: a role opens the back office through the permissions granted to
          // it, and a new site's 超级管理员 holds none (docs/moredoc.md §11); only user 1 needs none.
          hint: '管理后台的权限按角色授予：在“角色管理”中点角色的“权限”勾选。新站点的“超级管理员”角色还没有任何权限',
        },
        { name: 'email', label: '邮箱', kind: 'text', validate: (v: string) => checkEmail(v, false) },
        { name: 'realname', label: '真实姓名', kind: 'text', maxLength: 64, half: true, modes: ['edit'] },
        {
          name: 'mobile',
          label: '手机号',
          kind: 'text',
          half: true,
          modes: ['edit'],
          validate: (v: string) => checkMobile(v),
        },
        { name: 'identity', label: '身份证号', kind: 'text', maxLength: 32, modes: ['edit'] },
        { name: 'address', label: '地址', kind: 'text', maxLength: 255, modes: ['edit'] },
        { name: 'signature', label: '个性签名', kind: 'textarea', maxLength: 255, modes: ['edit'] },
        {
          name: 'remark',
          label: '管理员备注',
          kind: 'textarea',
          maxLength: 1000,
          modes: ['edit'],
          hint: '仅管理员可见',
        },
      ],
      initial: (row) => ({
        username: row?.username ?? '',
        password: '',
        email: row?.email ?? '',
        group_id: row?.group_id ?? groups.filter((g) => g.is_default).map((g) => g.id ?? 0),
        realname: row?.realname ?? '',
        mobile: row?.mobile ?? '',
        identity: row?.identity ?? '',
        address: row?.address ?? '',
        signature: row?.signature ?? '',
        remark: row?.remark ?? '',
      }),
    },
    create: (v, context) =>
      createUser(
        { username: v.username.trim(), password: v.password, email: v.email.trim(), group_id: v.group_id },
        context,
      ),
    update: (v, row, context) => {
      const id = row.id ?? 0;
      // The profile call writes every column, so the avatar goes along unchanged.
      const profile = {
        id,
        avatar: row.avatar ?? '',
        email: v.email.trim(),
        realname: v.realname.trim(),
        mobile: v.mobile.trim(),
        identity: v.identity.trim(),
        address: v.address.trim(),
        signature: v.signature.trim(),
        remark: v.remark.trim(),
      };
      return updateUser({ id, group_id: v.group_id, password: v.password || undefined }, profile, context);
    },
    rowActions: (row) => <UserCreditAction row={row} credits={credits} />,
    rowActionsRequire: [ADJUST_CREDIT],
    remove: (ids, { password }, context) => deleteUsers(ids, password ?? '', context),
    deletion: {
      password: true,
      note: '用户的下载、收藏、动态等记录会一并删除；仍有文档或文章的用户不能删除。',
      blocked: (row) =>
        row.id === SUPER_USER_ID ? '超级管理员不能删除' : row.id === myId ? '不能删除自己的账号' : undefined,
    },
    requires: {
      create: grpcPermissionPath('UserAPI', 'AddUser'),
      update: grpcPermissionPath('UserAPI', 'SetUser'),
      remove: grpcPermissionPath('UserAPI', 'DeleteUser'),
    },
  };
}
