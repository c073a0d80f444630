// The 热门文档 ranking as a numbered list: place, format, title (to the reader), pages and views.
import { Link } from 'react-router-dom';
import type { Document } from '../../../../shared/types/document';
import { documentPath } from '../document/document-links';
import { FormatIcon } from '../document/FormatIcon';
import './hot.css';

export function HotDocumentList({
  documents,
  firstPlace = 1,
  label,
}: {
  documents: readonly Document[];
  firstPlace?: number;
  label: string;
}) {
  return (
    <ol className="app-hot" start={firstPlace} aria-label={label}>
      {documents.map((doc, i) => {
        const path = documentPath(doc);
        const title = doc.title ?? '未命名文档';
        return (
          <li key={doc.id} className="app-hot__item">
            <span className={`app-hot__place${firstPlace + i <= 3 ? ' app-hot__place--top' : ''}`} aria-hidden="true">
              {firstPlace + i}
            </span>
            <span className="app-hot__title">
              <FormatIcon ext={doc.ext} />
              {path ? <Link to={path}>{title}</Link> : <span>{title}</span>}
            </span>
            <span className="app-hot__meta">
              {doc.pages ? `${doc.pages} 页` : ''}
              {doc.view_count ? ` · ${doc.view_count} 次浏览` : ''}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
