// The admin's attachments (/admin/attachment): every stored file, its type (docs/product.md §9 resource
// types), size, uploader and hash; edit its name, description and whether it is allowed
// (a disabled hash cannot be uploaded again); delete with confirmation.
import { optionLabel, resourceTypeOptions } from '../../../../shared/constants';
import { formatBytes } from '../../../../shared/format';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Attachment } from '../../../../shared/types/attachment';
import { dateColumn, EnabledTag, StackCell } from '../../kit/admin-resource/cells';
import { asList, enabledFilterOptions, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { attachmentKeys, attachmentWrites, listAttachments } from './api';

type Values = { name: string; description: string; enable: boolean };

const perm = (rpc: string) => grpcPermissionPath('AttachmentAPI', rpc);

export const attachmentResource: ResourceDef<Attachment, Values> = {
  key: 'attachment',
  title: '附件管理',
  noun: '附件',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.name ?? row.hash ?? '',
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    // The hash under the name: as a column of its own it left the name a word a line at 1280 px.
    {
      key: 'name',
      title: '文件名 / 哈希（MD5）',
      render: (row) => (
        <StackCell
          main={
            row.path?.startsWith('/uploads/') ? (
              <a href={row.path} target="_blank" rel="noopener">
                {row.name || row.path}
              </a>
            ) : (
              row.name || '-'
            )
          }
          sub={
            <code className="app-resource-hash" title={row.hash}>
              {row.hash ?? '-'}
            </code>
          }
        />
      ),
    },
    {
      key: 'type',
      title: '类型',
      width: 80,
      render: (row) => row.type_name || optionLabel(resourceTypeOptions, row.type ?? 0, '未知'),
    },
    { key: 'size', title: '大小', width: 90, render: (row) => formatBytes(row.size ?? 0) },
    { key: 'username', title: '上传者', width: 90, render: (row) => row.username || '-' },
    {
      key: 'enable',
      title: '状态',
      width: 80,
      render: (row) => <EnabledTag enabled={row.enable} on="正常" off="已禁用" />,
    },
    dateColumn('created_at', '上传时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '文件名或描述' },
    { kind: 'select', name: 'type', label: '类型', options: resourceTypeOptions },
    { kind: 'select', name: 'enable', label: '状态', options: enabledFilterOptions },
  ],
  listKey: attachmentKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listAttachments({
        page,
        size,
        wd: keyword(filters.wd),
        type: asList(filters.type as number | undefined),
        enable: asList(filters.enable as boolean | undefined),
      }),
      (reply) => reply.attachment,
    ),
  form: {
    fields: [
      { name: 'name', label: '文件名', kind: 'text', required: true, maxLength: 255 },
      { name: 'description', label: '描述', kind: 'textarea', maxLength: 255 },
      { name: 'enable', label: '允许使用', kind: 'switch', hint: '禁用后，相同内容的文件不能再上传' },
    ],
    initial: (row) => ({
      name: row?.name ?? '',
      description: row?.description ?? '',
      enable: row ? row.enable === true : true,
    }),
  },
  update: (v, row, context) =>
    attachmentWrites.update(
      { id: row.id, name: v.name.trim(), description: v.description.trim(), enable: v.enable },
      context,
    ),
  remove: (ids, _confirmation, context) => attachmentWrites.remove(ids, context),
  deletion: { note: '文件在没有其他记录使用时会从存储中删除。' },
  requires: { update: perm('UpdateAttachment'), remove: perm('DeleteAttachment') },
};
