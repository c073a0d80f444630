// The admin's friend links (/admin/friendlink): the links in the home page footer.
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Friendlink } from '../../../../shared/types/friendlink';
import { dateColumn, enabledColumn, LinkCell } from '../../kit/admin-resource/cells';
import { asList, enabledFilterOptions, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { checkLink } from '../../kit/admin-resource/validation';
import { friendlinkKeys, friendlinkWrites, listFriendlinks } from './api';

type Values = { title: string; link: string; description: string; sort: number | undefined; enable: boolean };

const toBody = (v: Values): Friendlink => ({
  title: v.title.trim(),
  link: v.link.trim(),
  description: v.description.trim(),
  sort: v.sort ?? 0,
  enable: v.enable,
});

export const friendlinkResource: ResourceDef<Friendlink, Values> = {
  key: 'friendlink',
  title: '友链管理',
  noun: '友链',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.title ?? '',
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    { key: 'title', title: '名称' },
    { key: 'link', title: '链接', render: (row) => <LinkCell href={row.link} /> },
    { key: 'sort', title: '排序', width: 80, render: (row) => row.sort ?? 0 },
    enabledColumn(),
    dateColumn('created_at', '创建时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '名称或描述' },
    { kind: 'select', name: 'enable', label: '状态', options: enabledFilterOptions },
  ],
  listKey: friendlinkKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listFriendlinks({ page, size, wd: keyword(filters.wd), enable: asList(filters.enable as boolean | undefined) }),
      (r) => r.friendlink,
    ),
  form: {
    fields: [
      { name: 'title', label: '名称', kind: 'text', required: true, maxLength: 64 },
      {
        name: 'link',
        label: '链接',
        kind: 'text',
        required: true,
        placeholder: 'https://',
        validate: (v: string) => checkLink(v, '链接'),
      },
      { name: 'description', label: '描述', kind: 'textarea', maxLength: 255 },
      { name: 'sort', label: '排序', kind: 'number', integer: true, half: true, hint: '数字越大越靠前' },
      { name: 'enable', label: '启用', kind: 'switch', half: true },
    ],
    initial: (row) => ({
      title: row?.title ?? '',
      link: row?.link ?? '',
      description: row?.description ?? '',
      sort: row?.sort ?? 0,
      enable: row ? row.enable === true : true,
    }),
  },
  create: (values, context) => friendlinkWrites.create(toBody(values), context),
  update: (values, row, context) =>
    friendlinkWrites.update({ ...toBody(values), id: row.id, created_at: row.created_at }, context),
  remove: (ids, _confirmation, context) => friendlinkWrites.remove(ids, context),
  requires: {
    create: grpcPermissionPath('FriendlinkAPI', 'CreateFriendlink'),
    update: grpcPermissionPath('FriendlinkAPI', 'UpdateFriendlink'),
    remove: grpcPermissionPath('FriendlinkAPI', 'DeleteFriendlink'),
  },
};
