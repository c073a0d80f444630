// The admin's advertisements (/admin/advertisement): HTML shown in a slot of docs/product.md §9 between a
// start and an end time, while enabled.
import { adSlotGroups, type Option } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Advertisement } from '../../../../shared/types/advertisement';
import { dateColumn, EnabledTag } from '../../kit/admin-resource/cells';
import { dateTimeRender } from '../../kit/admin-resource/DateTimeInput';
import { asList, enabledFilterOptions, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { FieldDef, ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { adPhase, advertisementKeys, advertisementWrites, listAdvertisements } from './api';

type Values = {
  position: string | undefined;
  title: string;
  content: string;
  /** RFC 3339, or '' while not chosen. */
  start_time: string;
  end_time: string;
  remark: string;
  enable: boolean;
};

/** Every slot, labelled with its page: 首页 · 轮播图下方. */
export const slotOptions: readonly Option<string>[] = adSlotGroups.flatMap((group) =>
  group.slots.map((slot) => ({ value: slot.value, label: `${group.label} · ${slot.label}` })),
);

/** A required date-time field of the form, half a row wide. */
const timeField = (name: 'start_time' | 'end_time', label: string, placeholder: string) =>
  ({
    name,
    label,
    kind: 'custom',
    required: true,
    half: true,
    emptyMessage: `请选择${label}`,
    render: dateTimeRender(placeholder),
  }) satisfies FieldDef<Values>;

const slotLabel = (position: string | undefined) =>
  slotOptions.find((o) => o.value === position)?.label ?? position ?? '-';

const PHASE_TAGS = { showing: ['green', '投放中'], upcoming: ['blue', '未开始'], ended: ['grey', '已结束'] } as const;

function StatusTag({ row }: { row: Advertisement }) {
  // The list omits `enable: false` (zero values are not sent).
  const phase = adPhase({ ...row, enable: row.enable === true });
  if (phase === 'disabled') return <EnabledTag enabled={false} />;
  const [color, label] = PHASE_TAGS[phase];
  return <Tag color={color}>{label}</Tag>;
}

const toBody = (v: Values): Advertisement => ({
  position: v.position ?? '',
  title: v.title.trim(),
  content: v.content.trim(),
  start_time: v.start_time,
  end_time: v.end_time,
  remark: v.remark.trim(),
  enable: v.enable,
});

export const advertisementResource: ResourceDef<Advertisement, Values> = {
  key: 'advertisement',
  title: '广告管理',
  noun: '广告',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.title || slotLabel(row.position),
  columns: [
    { key: 'id', title: 'ID', width: 70 },
    { key: 'title', title: '标题', render: (row) => row.title || <span className="app-resource-muted">-</span> },
    { key: 'position', title: '广告位', render: (row) => slotLabel(row.position) },
    dateColumn('start_time', '开始时间'),
    dateColumn('end_time', '结束时间'),
    { key: 'enable', title: '状态', width: 90, render: (row) => <StatusTag row={row} /> },
  ],
  filters: [
    { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '标题、内容或备注' },
    { kind: 'select', name: 'position', label: '广告位', options: slotOptions },
    { kind: 'select', name: 'enable', label: '状态', options: enabledFilterOptions },
  ],
  listKey: advertisementKeys.admin,
  list: ({ page, size, filters }) =>
    listPage(
      listAdvertisements({
        page,
        size,
        wd: keyword(filters.wd),
        position: asList(filters.position as string | undefined),
        enable: asList(filters.enable as boolean | undefined),
      }),
      (r) => r.advertisement,
    ),
  form: {
    fields: [
      { name: 'position', label: '广告位', kind: 'select', options: slotOptions, required: true },
      { name: 'title', label: '标题', kind: 'text', maxLength: 64, hint: '便于管理，也是读屏软件读出的广告名称' },
      {
        name: 'content',
        label: '广告内容',
        kind: 'textarea',
        required: true,
        maxLength: 10000,
        placeholder: '<a href="https://…"><img src="https://…" alt="…"></a>',
        hint: 'HTML：链接、图片和文字；脚本、表单、内嵌框架和事件属性会被移除，图片须为 https 或本站上传的地址',
      },
      timeField('start_time', '开始时间', '开始投放的时间'),
      {
        ...timeField('end_time', '结束时间', '停止投放的时间'),
        validate: (value: string, values) =>
          values.start_time && Date.parse(value) < Date.parse(values.start_time)
            ? '结束时间不能早于开始时间'
            : undefined,
      },
      { name: 'remark', label: '备注', kind: 'textarea', maxLength: 255, hint: '仅管理员可见' },
      { name: 'enable', label: '启用', kind: 'switch', modes: ['edit'] },
    ],
    initial: (row) => ({
      position: row?.position,
      title: row?.title ?? '',
      content: row?.content ?? '',
      start_time: row?.start_time ?? '',
      end_time: row?.end_time ?? '',
      remark: row?.remark ?? '',
      enable: row ? row.enable === true : true,
    }),
  },
  create: (values, context) => advertisementWrites.create(toBody(values), context),
  update: (values, row, context) => advertisementWrites.update({ ...toBody(values), id: row.id }, context),
  remove: (ids, _confirmation, context) => advertisementWrites.remove(ids, context),
  requires: {
    create: grpcPermissionPath('AdvertisementAPI', 'CreateAdvertisement'),
    update: grpcPermissionPath('AdvertisementAPI', 'UpdateAdvertisement'),
    remove: grpcPermissionPath('AdvertisementAPI', 'DeleteAdvertisement'),
  },
};
