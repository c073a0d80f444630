// A document in a grid (library, home, related): its cover in a fixed box, title, format,
// pages, size and price.
import { Link } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import type { Document } from '../../../../shared/types/document';
import { useSettings } from '../settings/use-settings';
import { DocumentPrice } from './DocumentPrice';
import { FormatIcon } from './FormatIcon';
import { coverUrl, documentPath } from './document-links';
import './document.css';

export function DocumentCard({
  doc,
  categoryId,
}: {
  doc: Document;
  /** The category the card is shown under, when the document does not list its own. */
  categoryId?: number;
}) {
  const settings = useSettings();
  const path = documentPath(doc, categoryId);
  const title = doc.title || '未命名文档';
  const cover = coverUrl(doc);
  const body = (
    <>
      <span className="app-doc-card__cover">
        {cover ? (
          <img src={cover} alt="" loading="lazy" decoding="async" />
        ) : (
          <span className="app-doc-card__no-cover">暂无封面</span>
        )}
      </span>
      <span className="app-doc-card__title">
        <FormatIcon ext={doc.ext} />
        <span className="app-doc-card__title-text">{title}</span>
      </span>
    </>
  );
  return (
    <article className="app-doc-card" aria-label={title}>
      {path ? (
        <Link to={path} className="app-doc-card__link">
          {body}
        </Link>
      ) : (
        <div className="app-doc-card__link">{body}</div>
      )}
      <p className="app-doc-card__meta">
        {doc.pages ? <span>{doc.pages} 页</span> : null}
        {doc.size ? <span>{formatBytes(doc.size)}</span> : null}
        <DocumentPrice price={doc.price} settings={settings} />
      </p>
    </article>
  );
}

/** Cards in a responsive grid: two a row on a phone, up to six on a wide screen. */
export function DocumentGrid({ documents, categoryId }: { documents: readonly Document[]; categoryId?: number }) {
  return (
    <div className="app-doc-grid">
      {documents.map((doc) => (
        <DocumentCard key={doc.id} doc={doc} categoryId={categoryId} />
      ))}
    </div>
  );
}
