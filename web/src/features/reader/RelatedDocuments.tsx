// Documents related to the one being read (by keywords, computed by the server).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { documentPath } from '../document/document-links';
import { FormatIcon } from '../document/FormatIcon';
import { relatedDocumentsQuery } from '../document/api';

export function RelatedDocuments({ id, categoryId }: { id: number; categoryId: number }) {
  const related = useQuery(relatedDocumentsQuery(id));
  return (
    <section className="app-panel app-related" aria-labelledby="related-title">
      <h2 id="related-title" className="app-panel__title">
        相关文档
      </h2>
      <QueryStates
        query={related}
        loadingRows={4}
        failure="相关文档加载失败"
        isEmpty={(documents) => documents.filter((d) => d.id !== id).length === 0}
        empty={<p className="app-related__none">暂无相关文档</p>}
      >
        {(documents) => (
          <ul className="app-related__list">
            {documents
              .filter((doc) => doc.id !== id)
              .map((doc) => (
                <li key={doc.id}>
                  <FormatIcon ext={doc.ext} />
                  <Link to={documentPath(doc, categoryId) ?? '#'} title={doc.title}>
                    {doc.title}
                  </Link>
                </li>
              ))}
          </ul>
        )}
      </QueryStates>
    </section>
  );
}
