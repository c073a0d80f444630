// The admin's document and article categories (/admin/document/category,
// /admin/article/category): one description for both; only the type (0 documents, 1
// articles), the titles and the counter's name differ.
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Category } from '../../../../shared/types/category';
import { enabledColumn, ImageThumb } from '../../kit/admin-resource/cells';
import { keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { parentField, titledTree } from '../../kit/admin-resource/tree';
import { imageUploadTarget } from '../upload/api';
import { CATEGORY_TYPE, categoryKeys, categoryWrites, listCategories, type CategoryType } from './api';

type Values = {
  parent_id: number | undefined;
  title: string;
  cover: string;
  icon: string;
  sort: number | undefined;
  enable: boolean;
  description: string;
  show_description: boolean;
};

const COUNTED = { [CATEGORY_TYPE.document]: '文档数', [CATEGORY_TYPE.article]: '文章数' } as const;

export function categoryResource(type: CategoryType): ResourceDef<Category, Values> {
  const kind = type === CATEGORY_TYPE.article ? '文章' : '文档';
  const body = (v: Values): Category => ({
    type,
    parent_id: v.parent_id ?? 0,
    cover: v.cover,
    icon: v.icon,
    sort: v.sort ?? 0,
    enable: v.enable,
    description: v.description.trim(),
    show_description: v.show_description,
  });
  return {
    key: `category-${type}`,
    title: `${kind}分类`,
    noun: '分类',
    ...titledTree,
    columns: [
      {
        key: 'title',
        title: '名称',
        render: (row) => (
          <span className="app-category-title">
            {row.icon && <img src={row.icon} alt="" width={20} height={20} />}
            {row.title}
          </span>
        ),
      },
      {
        key: 'cover',
        title: '封面',
        width: 120,
        render: (row) => <ImageThumb src={row.cover} alt={`${row.title ?? ''}封面`} />,
      },
      { key: 'doc_count', title: COUNTED[type], width: 90, render: (row) => row.doc_count ?? 0 },
      { key: 'sort', title: '排序', width: 80, render: (row) => row.sort ?? 0 },
      enabledColumn(),
      { key: 'show_description', title: '显示描述', width: 100, render: (row) => (row.show_description ? '是' : '否') },
    ],
    filters: [{ kind: 'keyword', name: 'wd', label: '名称', placeholder: '分类名称' }],
    listKey: categoryKeys.admin(type),
    list: ({ filters }) => listPage(listCategories(type, keyword(filters.wd)), (r) => r.category),
    form: {
      fields: [
        parentField('上级分类'),
        {
          name: 'title',
          label: '分类名称',
          kind: 'textarea',
          required: true,
          modes: ['create'],
          hint: '每行一个名称，可一次创建多个同级分类；有一个与同级分类重名时，全部不会创建',
          validate: (v: string, values, { rows }) => {
            const lines = v
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean);
            if (lines.some((line) => [...line].length > 64)) return '每个分类名称不能超过 64 个字符';
            // The server refuses the whole batch for one title taken under the parent (409 分类名称已存在,
            // naming none): the form names it, among the categories on show.
            const parent = values.parent_id ?? 0;
            const taken = lines.find((line) =>
              rows.some((row) => (row.parent_id ?? 0) === parent && row.title === line),
            );
            return taken === undefined ? undefined : `同级已有分类“${taken}”，请删去这一行`;
          },
        },
        { name: 'title', label: '分类名称', kind: 'text', required: true, maxLength: 64, modes: ['edit'] },
        { name: 'icon', label: '图标', kind: 'image', upload: imageUploadTarget('category'), half: true },
        { name: 'cover', label: '封面', kind: 'image', upload: imageUploadTarget('category'), half: true },
        { name: 'sort', label: '排序', kind: 'number', integer: true, half: true, hint: '数字越大越靠前' },
        { name: 'enable', label: '启用', kind: 'switch', half: true, modes: ['edit'] },
        { name: 'description', label: '描述', kind: 'textarea', maxLength: 500 },
        { name: 'show_description', label: '在列表上方显示描述', kind: 'switch' },
      ],
      initial: (row) => ({
        parent_id: row?.parent_id ?? 0,
        title: row?.title ?? '',
        cover: row?.cover ?? '',
        icon: row?.icon ?? '',
        sort: row?.sort ?? 0,
        enable: row ? row.enable === true : true,
        description: row?.description ?? '',
        show_description: row?.show_description === true,
      }),
    },
    // New categories are always stored enabled (MOREDOC's behaviour); disable them by editing.
    create: (v, context) => categoryWrites.create({ ...body(v), title: v.title, enable: true }, context),
    update: (v, row, context) =>
      categoryWrites.update({ ...body(v), id: row.id, title: v.title.trim(), created_at: row.created_at }, context),
    remove: (ids, _confirmation, context) => categoryWrites.remove(ids, context),
    // The 文档数/文章数 column counts only what visitors can list: a category showing 0 may still
    // hold documents in conversion or review, or unpublished articles. The server refuses to
    // delete it then (400, naming it and how many), and the failure toast carries that message.
    deletion: {
      note: `下级分类会一并删除；分类或下级分类中还有${kind}（包括${type === CATEGORY_TYPE.article ? '未发布' : '未公开'}的）时不能删除。`,
      blocked: (row) => ((row.doc_count ?? 0) > 0 ? `分类下还有${kind}，不能删除` : undefined),
    },
    requires: {
      create: grpcPermissionPath('CategoryAPI', 'CreateCategory'),
      update: grpcPermissionPath('CategoryAPI', 'UpdateCategory'),
      remove: grpcPermissionPath('CategoryAPI', 'DeleteCategory'),
    },
  };
}
