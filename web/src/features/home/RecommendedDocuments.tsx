// Documents the admin recommended; nothing when there are none.
import { useQuery } from '@tanstack/react-query';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Panel } from '../../ui/Panel';
import { recommendedDocumentsQuery } from '../document/api';
import { DocumentGrid } from '../document/DocumentCard';

export function RecommendedDocuments() {
  const recommended = useQuery(recommendedDocumentsQuery());
  if (recommended.isSuccess && recommended.data.length === 0) return null;
  return (
    <Panel title="推荐文档" titleId="home-recommended-title">
      <QueryStates query={recommended} loadingRows={3} failure="推荐文档加载失败">
        {(documents) => <DocumentGrid documents={documents} />}
      </QueryStates>
    </Panel>
  );
}
