// The admin's search records (/admin/document/searchrecord): what people searched, when, how
// many hits and how long it took; kept as long as the security config says.
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { SearchRecord } from '../../../../shared/types/document';
import { dateColumn } from '../../kit/admin-resource/cells';
import { keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { deleteSearchRecords, listSearchRecords, searchKeys } from './api';

export const searchRecordResource: ResourceDef<SearchRecord> = {
  key: 'searchrecord',
  title: '搜索记录',
  noun: '搜索记录',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.keywords ?? '',
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    { key: 'keywords', title: '搜索词' },
    { key: 'total', title: '结果数', width: 90, render: (row) => row.total ?? 0 },
    { key: 'page', title: '页码', width: 70, render: (row) => row.page || 1 },
    { key: 'spend_time', title: '耗时', width: 100, render: (row) => `${(row.spend_time ?? 0).toFixed(3)} 秒` },
    { key: 'username', title: '用户', width: 110, render: (row) => row.username || '游客' },
    { key: 'ip', title: 'IP', width: 130 },
    dateColumn('created_at', '搜索时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'keywords', label: '搜索词' },
    { kind: 'keyword', name: 'ip', label: 'IP' },
  ],
  listKey: searchKeys.records,
  list: ({ page, size, filters }) =>
    listPage(
      listSearchRecords({ page, size, keywords: keyword(filters.keywords), ip: keyword(filters.ip) }),
      (reply) => reply.search_record,
    ),
  remove: (ids, _confirmation, context) => deleteSearchRecords(ids, context),
  requires: { remove: grpcPermissionPath('SearchRecordAPI', 'DeleteSearchRecord') },
};
