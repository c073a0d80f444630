// Small cell renderers, and the columns made of them, shared by the resource screens.
import { formatDate, SHORT_DATE_FORMAT } from '../../../../shared/format';
import { Tag } from '../../ui/semi';
import type { ColumnDef } from './resource';

export function EnabledTag({ enabled, on = '启用', off = '禁用' }: { enabled: boolean | undefined; on?: string; off?: string }) {
  return <Tag color={enabled ? 'green' : 'grey'}>{enabled ? on : off}</Tag>;
}

export function DateCell({ value }: { value: string | undefined }) {
  return <span className="app-resource-muted">{value ? formatDate(value, SHORT_DATE_FORMAT) || '-' : '-'}</span>;
}

/** The keys of the row's optional text fields (its times among them). */
type TextKey<Row> = { [K in keyof Row]-?: Row[K] extends string | undefined ? K : never }[keyof Row] & string;

/** A column of one of the row's times (`created_at`, `deleted_at`, …) as DateCell shows it. */
export function dateColumn<Row>(key: TextKey<Row>, title: string, width = 150): ColumnDef<Row> {
  return { key, title, width, render: (row) => <DateCell value={row[key] as string | undefined} /> };
}

/** The 状态 column of a resource that is enabled or disabled. */
export function enabledColumn<Row extends { enable?: boolean }>(): ColumnDef<Row> {
  return { key: 'enable', title: '状态', width: 90, render: (row) => <EnabledTag enabled={row.enable} /> };
}

export function ImageThumb({ src, alt, square }: { src: string | undefined; alt: string; square?: boolean }) {
  if (!src) return <span className="app-resource-muted">-</span>;
  return <img className={`app-resource-thumb${square ? ' app-resource-thumb--square' : ''}`} src={src} alt={alt} loading="lazy" />;
}
