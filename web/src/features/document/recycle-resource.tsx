// The admin's recycle bin (/admin/document/recycle): deleted documents, who deleted them and
// when; recover one or many, delete for good (the files go once nothing else uses them).
// Emptying the whole bin is the page's own button (documentRecycleBin).
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Document } from '../../../../shared/types/document';
import { dateColumn } from '../../kit/admin-resource/cells';
import type { RecycleBin } from '../../kit/admin-resource/EmptyRecycleBinButton';
import { keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { documentKeys, emptyRecycleBin, listRecycledDocuments, purgeDocuments, recoverDocuments } from './api';
import { DocumentStatusTag } from './DocumentStatusTag';
import { FormatIcon } from './FormatIcon';

export const RECOVER = grpcPermissionPath('RecycleAPI', 'RecoverRecycleDocument');
export const PURGE = grpcPermissionPath('RecycleAPI', 'DeleteRecycleDocument');

/** The bin that the page's 清空回收站 button empties. */
export const documentRecycleBin: RecycleBin = {
  permission: grpcPermissionPath('RecycleAPI', 'ClearRecycleDocument'),
  empty: emptyRecycleBin,
  confirmation: '确定彻底删除回收站中的全部文档吗？此操作不可恢复。',
};

export const recycleResource: ResourceDef<Document> = {
  key: 'recycle',
  title: '文档回收站',
  noun: '文档',
  counter: '篇',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.title ?? '',
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    {
      key: 'title',
      title: '文档',
      render: (row) => (
        <span className="app-admin-document__name">
          <FormatIcon ext={row.ext} />
          {row.title || '未命名文档'}
        </span>
      ),
    },
    { key: 'username', title: '上传者', width: 90, render: (row) => row.username || '-' },
    { key: 'status', title: '状态', width: 90, render: (row) => <DocumentStatusTag status={row.status} /> },
    { key: 'deleted_username', title: '删除者', width: 90, render: (row) => row.deleted_username || '-' },
    dateColumn('deleted_at', '删除时间'),
  ],
  filters: [{ kind: 'keyword', name: 'wd', label: '关键字', placeholder: '标题、关键词或简介' }],
  listKey: documentKeys.recycle,
  list: ({ page, size, filters }) =>
    listPage(listRecycledDocuments({ page, size, wd: keyword(filters.wd) }), (reply) => reply.document),
  remove: (ids, _confirmation, context) => purgeDocuments(ids, context),
  // The message above it already says 此操作不可恢复; the note adds only what happens to the file.
  deletion: { note: '文档文件在没有其他文档使用时一并删除。' },
  requires: { remove: PURGE },
  rowCommands: (row) => [
    {
      key: 'recover',
      label: '恢复',
      confirm: `确定恢复“${row.title ?? ''}”吗？`,
      run: (context) => recoverDocuments([row.id ?? 0], context),
      success: '已恢复',
      requires: RECOVER,
    },
  ],
  batchActions: [
    {
      key: 'recover',
      label: '批量恢复',
      confirm: (count) => `确定恢复选中的 ${count} 篇文档吗？`,
      run: (ids, context) => recoverDocuments(ids, context),
      success: '已恢复',
      requires: RECOVER,
    },
  ],
};
