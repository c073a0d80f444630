// The admin's banners (/admin/banner): the carousels of the website (type 0), the mini
// program (1) and the app (2).
import { bannerTypeOptions, optionLabel } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Banner } from '../../../../shared/types/banner';
import { dateColumn, enabledColumn, ImageThumb, LinkCell, StackCell } from '../../kit/admin-resource/cells';
import { asList, enabledFilterOptions, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ResourceDef } from '../../kit/admin-resource/resource';
import { checkLink } from '../../kit/admin-resource/validation';
import { imageUploadTarget } from '../upload/api';
import { bannerKeys, bannerWrites, listBanners } from './api';

type Values = {
  title: string;
  path: string;
  url: string;
  type: number | undefined;
  sort: number | undefined;
  enable: boolean;
  description: string;
};

const toBody = (v: Values): Banner => ({
  title: v.title.trim(),
  path: v.path,
  url: v.url.trim(),
  type: v.type ?? 0,
  sort: v.sort ?? 0,
  enable: v.enable,
  description: v.description.trim(),
});

export const bannerResource: ResourceDef<Banner, Values> = {
  key: 'banner',
  title: '轮播图管理',
  noun: '轮播图',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.title ?? '',
  columns: [
    {
      key: 'path',
      title: '图片',
      width: 120,
      render: (row) => <ImageThumb src={row.path} alt={row.title ?? '轮播图'} />,
    },
    // The link under the title: in a column of its own, beside the image, type, order and time,
    // it left the title four characters a line at 1280 px.
    {
      key: 'title',
      title: '标题',
      render: (row) => <StackCell main={row.title || '-'} sub={row.url ? <LinkCell href={row.url} /> : undefined} />,
    },
    { key: 'type', title: '类型', width: 110, render: (row) => optionLabel(bannerTypeOptions, row.type ?? 0) },
    { key: 'sort', title: '排序', width: 80, render: (row) => row.sort ?? 0 },
    enabledColumn(),
    dateColumn('created_at', '创建时间'),
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '标题或描述' },
    { kind: 'select', name: 'type', label: '类型', options: bannerTypeOptions },
    { kind: 'select', name: 'enable', label: '状态', options: enabledFilterOptions },
  ],
  listKey: bannerKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listBanners({
        page,
        size,
        wd: keyword(filters.wd),
        type: asList(filters.type as number | undefined),
        enable: asList(filters.enable as boolean | undefined),
      }),
      (r) => r.banner,
    ),
  form: {
    fields: [
      { name: 'title', label: '标题', kind: 'text', required: true, maxLength: 64 },
      {
        name: 'path',
        label: '图片',
        kind: 'image',
        upload: imageUploadTarget('banner'),
        required: true,
        hint: '建议宽高比 3:1，支持 JPG、PNG、GIF、WEBP',
      },
      { name: 'type', label: '类型', kind: 'select', options: bannerTypeOptions, required: true, half: true },
      { name: 'sort', label: '排序', kind: 'number', integer: true, half: true, hint: '数字越大越靠前' },
      {
        name: 'url',
        label: '链接',
        kind: 'text',
        placeholder: 'https:// 或 /library',
        validate: (v: string) => checkLink(v, '链接', { sitePath: true }),
      },
      { name: 'description', label: '描述', kind: 'textarea', maxLength: 255 },
      { name: 'enable', label: '启用', kind: 'switch' },
    ],
    initial: (row) => ({
      title: row?.title ?? '',
      path: row?.path ?? '',
      url: row?.url ?? '',
      type: row ? (row.type ?? 0) : 0,
      sort: row?.sort ?? 0,
      enable: row ? row.enable === true : true,
      description: row?.description ?? '',
    }),
  },
  create: (values, context) => bannerWrites.create(toBody(values), context),
  update: (values, row, context) =>
    bannerWrites.update({ ...toBody(values), id: row.id, created_at: row.created_at }, context),
  remove: (ids, _confirmation, context) => bannerWrites.remove(ids, context),
  requires: {
    create: grpcPermissionPath('BannerAPI', 'CreateBanner'),
    update: grpcPermissionPath('BannerAPI', 'UpdateBanner'),
    remove: grpcPermissionPath('BannerAPI', 'DeleteBanner'),
  },
};
