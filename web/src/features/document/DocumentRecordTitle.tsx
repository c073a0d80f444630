import { Link } from 'react-router-dom';
import type { Favorite } from '../../../../shared/types/document';
import { documentPathById } from './document-links';
import { FormatIcon } from './FormatIcon';

/**
 * The document of a member's record (a favourite, a download): its format and title, linked
 * to the reader while the document exists; the record outlives a deleted document.
 */
export function DocumentRecordTitle({ record }: { record: Pick<Favorite, 'document_id' | 'title' | 'ext'> }) {
  return (
    <span className="app-my-documents__title">
      <FormatIcon ext={record.ext} />
      {record.document_id && record.title ? (
        <Link to={documentPathById(record.document_id)}>{record.title}</Link>
      ) : (
        (record.title ?? '已删除的文档')
      )}
    </span>
  );
}
