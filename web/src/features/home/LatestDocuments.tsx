import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import { errorMessage } from '../../api/client';
import { documentPath, latestDocumentsQuery } from '../../api/document';
import { EmptyState, ErrorState } from '../../ui/states';
import { Skeleton } from '../../ui/semi';

export function LatestDocuments() {
  const { data, isPending, isError, error, refetch } = useQuery(latestDocumentsQuery());
  let body;
  if (isPending) {
    body = <Skeleton.Paragraph rows={4} />;
  } else if (isError) {
    body = <ErrorState message={errorMessage(error, '最新文档加载失败')} onRetry={() => void refetch()} />;
  } else if (data.length === 0) {
    body = <EmptyState title="暂无文档" description="还没有可以阅读的文档，稍后再来看看吧。" />;
  } else {
    body = (
      <ul className="app-home__documents">
        {data.map((doc) => {
          const path = documentPath(doc);
          const title = doc.title ?? '未命名文档';
          return (
            <li key={doc.id} className="app-home__document">
              {path ? <Link to={path}>{title}</Link> : <span>{title}</span>}
              <span className="app-home__document-meta">
                {doc.ext?.replace('.', '').toUpperCase()} {doc.pages ? `· ${doc.pages} 页` : ''} {doc.size ? `· ${formatBytes(doc.size)}` : ''}
              </span>
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <section className="app-panel" aria-labelledby="home-latest-title">
      <h2 id="home-latest-title" className="app-panel__title">
        最新文档
      </h2>
      {body}
    </section>
  );
}
