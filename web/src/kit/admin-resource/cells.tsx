// Small cell renderers shared by the resource screens.
import { formatDate, SHORT_DATE_FORMAT } from '../../../../shared/format';
import { Tag } from '../../ui/semi';

export function EnabledTag({ enabled, on = '启用', off = '禁用' }: { enabled: boolean | undefined; on?: string; off?: string }) {
  return <Tag color={enabled ? 'green' : 'grey'}>{enabled ? on : off}</Tag>;
}

export function DateCell({ value }: { value: string | undefined }) {
  return <span className="app-resource-muted">{value ? formatDate(value, SHORT_DATE_FORMAT) || '-' : '-'}</span>;
}

export function ImageThumb({ src, alt, square }: { src: string | undefined; alt: string; square?: boolean }) {
  if (!src) return <span className="app-resource-muted">-</span>;
  return <img className={`app-resource-thumb${square ? ' app-resource-thumb--square' : ''}`} src={src} alt={alt} loading="lazy" />;
}
