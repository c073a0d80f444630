// Small cell renderers, and the columns made of them, shared by the resource screens.
import { Fragment, type ReactNode } from 'react';
import { formatDate, SHORT_DATE_FORMAT } from '../../../../shared/format';
import { Tag } from '../../ui/semi-extra';
import type { ColumnDef } from './resource';

export function EnabledTag({
  enabled,
  on = '启用',
  off = '禁用',
}: {
  enabled: boolean | undefined;
  on?: string;
  off?: string;
}) {
  return <Tag color={enabled ? 'green' : 'grey'}>{enabled ? on : off}</Tag>;
}

/** A time as `2024-05-06 13:45`, on one line (admin-resource.css). */
export function DateCell({ value }: { value: string | undefined }) {
  return (
    <span className="app-resource-muted app-resource-date">
      {value ? formatDate(value, SHORT_DATE_FORMAT) || '-' : '-'}
    </span>
  );
}

/** An address on one line, cut with an ellipsis past 12em (the whole address on hover), opened in a new tab. */
export function LinkCell({ href }: { href: string | undefined }) {
  if (!href) return <span className="app-resource-muted">-</span>;
  return (
    <a className="app-resource-url" href={href} title={href} target="_blank" rel="noreferrer noopener">
      {href}
    </a>
  );
}

/** A path such as a category's (`教育资料 / 高考复习`): lines break between its names, never inside one. */
export function TrailCell({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <span className="app-resource-muted">-</span>;
  return (
    <span className="app-resource-trail">
      {names.map((name, index) => (
        <Fragment key={index}>
          {index > 0 && ' / '}
          <span>{name}</span>
        </Fragment>
      ))}
    </span>
  );
}

/** A value with, under it in grey, what goes with it (a plan and its price, a user and a contact). */
export function StackCell({ main, sub }: { main: ReactNode; sub?: ReactNode }) {
  return (
    <span className="app-resource-stack">
      <span>{main}</span>
      {sub !== undefined && sub !== null && sub !== '' && <span className="app-resource-muted">{sub}</span>}
    </span>
  );
}

/**
 * What a row shows again in its first column on a phone, where its own column is off screen (an
 * order's state), and not from 768 px (admin-resource.css). Hidden from screen readers, which
 * read the column's own cell at every width: they heard the state twice a row on a phone.
 */
export function PhoneCopy({ children }: { children: ReactNode }) {
  return (
    <span className="app-resource-phone-only" aria-hidden="true">
      {children}
    </span>
  );
}

/** The keys of the row's optional text fields (its times among them). */
type TextKey<Row> = { [K in keyof Row]-?: Row[K] extends string | undefined ? K : never }[keyof Row] & string;

/** A column of one of the row's times (`created_at`, `deleted_at`, …) as DateCell shows it. */
export function dateColumn<Row>(key: TextKey<Row>, title: string, width = 140): ColumnDef<Row> {
  return { key, title, width, render: (row) => <DateCell value={row[key] as string | undefined} /> };
}

/** The 状态 column of a resource that is enabled or disabled. */
export function enabledColumn<Row extends { enable?: boolean }>(): ColumnDef<Row> {
  return { key: 'enable', title: '状态', width: 80, render: (row) => <EnabledTag enabled={row.enable} /> };
}

export function ImageThumb({ src, alt, square }: { src: string | undefined; alt: string; square?: boolean }) {
  if (!src) return <span className="app-resource-muted">-</span>;
  return (
    <img
      className={`app-resource-thumb${square ? ' app-resource-thumb--square' : ''}`}
      src={src}
      alt={alt}
      loading="lazy"
    />
  );
}
