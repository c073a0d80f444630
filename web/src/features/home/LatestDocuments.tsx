import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import { latestDocumentsQuery } from '../document/api';
import { documentPath } from '../document/document-links';
import { FormatIcon } from '../document/FormatIcon';
import { Panel } from '../../ui/Panel';
import { EmptyState } from '../../ui/states';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { useSession } from '../session/use-session';

export function LatestDocuments() {
  const latest = useQuery(latestDocumentsQuery());
  const { allowPages } = useSession();
  return (
    <Panel title="最新文档" titleId="home-latest-title">
      <QueryStates
        query={latest}
        loadingRows={4}
        failure="最新文档加载失败"
        isEmpty={(documents) => documents.length === 0}
        empty={
          <EmptyState title="暂无文档" description="还没有可以阅读的文档，稍后再来看看吧。">
            {allowPages.includes('/admin/document/upload') && <Link to="/admin/document/upload">上传第一篇文档</Link>}
          </EmptyState>
        }
      >
        {(documents) => (
          <ul className="app-home__documents">
            {documents.map((doc) => {
              const path = documentPath(doc);
              const title = doc.title ?? '未命名文档';
              return (
                <li key={doc.id} className="app-home__document">
                  <span className="app-home__document-title">
                    <FormatIcon ext={doc.ext} />
                    {path ? <Link to={path}>{title}</Link> : <span>{title}</span>}
                  </span>
                  <span className="app-home__document-meta">
                    {doc.pages ? `${doc.pages} 页` : ''} {doc.size ? `· ${formatBytes(doc.size)}` : ''}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </QueryStates>
    </Panel>
  );
}
