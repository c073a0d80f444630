// The admin's industries (/admin/document/language), the documents' 行业. The backend keeps
// MOREDOC's LanguageAPI for them: `language` is the name shown, `code` a unique, immutable key.
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Language } from '../../../../shared/types/language';
import { enabledColumn } from '../../kit/admin-resource/cells';
import { asList, enabledFilterOptions, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { languageKeys, languageWrites, listLanguages, setLanguagesEnabled } from './api';

type Values = { language: string; code: string; sort: number | undefined; enable: boolean };

export const languageResource: ResourceDef<Language, Values> = {
  key: 'language',
  title: '行业管理',
  noun: '行业',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.language ?? row.code ?? '',
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    { key: 'language', title: '行业名称' },
    {
      key: 'code',
      title: '代码',
      render: (row) => <span className="app-resource-code app-resource-code--word">{row.code}</span>,
    },
    { key: 'total', title: '文档数', width: 90, render: (row) => row.total ?? 0 },
    { key: 'sort', title: '排序', width: 80, render: (row) => row.sort ?? 0 },
    enabledColumn(),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '名称或代码' },
    { kind: 'select', name: 'enable', label: '状态', options: enabledFilterOptions },
  ],
  listKey: languageKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listLanguages({ page, size, wd: keyword(filters.wd), enable: asList(filters.enable as boolean | undefined) }),
      (r) => r.language,
    ),
  form: {
    fields: [
      { name: 'language', label: '行业名称', kind: 'text', required: true, maxLength: 64 },
      {
        name: 'code',
        label: '代码',
        kind: 'text',
        required: true,
        maxLength: 32,
        readOnly: (mode) => mode === 'edit',
        pattern: { regex: /^[A-Za-z0-9][A-Za-z0-9_-]*$/, message: '代码只能包含字母、数字、下划线和短横线' },
        hint: '唯一标识，创建后不能修改',
      },
      { name: 'sort', label: '排序', kind: 'number', integer: true, half: true, hint: '数字越大越靠前' },
      { name: 'enable', label: '启用', kind: 'switch', half: true },
    ],
    initial: (row) => ({
      language: row?.language ?? '',
      code: row?.code ?? '',
      sort: row?.sort ?? 0,
      enable: row ? row.enable === true : true,
    }),
  },
  create: (v, context) =>
    languageWrites.create(
      { language: v.language.trim(), code: v.code.trim(), sort: v.sort ?? 0, enable: v.enable },
      context,
    ),
  update: (v, row, context) =>
    languageWrites.update(
      { id: row.id, language: v.language.trim(), code: row.code, sort: v.sort ?? 0, enable: v.enable },
      context,
    ),
  remove: (ids, _confirmation, context) => languageWrites.remove(ids, context),
  batchActions: [
    {
      key: 'enable',
      label: '批量启用',
      confirm: (count) => `确定启用选中的 ${count} 个行业吗？`,
      run: (ids, context) => setLanguagesEnabled(ids, true, context),
      success: '已启用',
      requires: grpcPermissionPath('LanguageAPI', 'UpdateLanguageStatus'),
    },
    {
      key: 'disable',
      label: '批量禁用',
      confirm: (count) => `确定禁用选中的 ${count} 个行业吗？禁用后前台不再显示。`,
      run: (ids, context) => setLanguagesEnabled(ids, false, context),
      success: '已禁用',
      requires: grpcPermissionPath('LanguageAPI', 'UpdateLanguageStatus'),
    },
  ],
  requires: {
    create: grpcPermissionPath('LanguageAPI', 'CreateLanguage'),
    update: grpcPermissionPath('LanguageAPI', 'UpdateLanguage'),
    remove: grpcPermissionPath('LanguageAPI', 'DeleteLanguage'),
  },
};
