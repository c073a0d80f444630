// The home page's 热门文档: the first places of the ranking, with a link to all of it; nothing
// while the ranking is empty (a new site).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { HOT_ON_HOME } from '../../../../shared/page-data';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Panel } from '../../ui/Panel';
import { hotDocumentsQuery } from '../document/api';
import { HotDocumentList } from '../hot/HotDocumentList';

export function HotDocuments() {
  const hot = useQuery(hotDocumentsQuery(1, HOT_ON_HOME));
  if (hot.isSuccess && !hot.data.document?.length) return null;
  const title = (
    <>
      热门文档
      <Link to="/hot" className="app-hot__more">
        查看更多
      </Link>
    </>
  );
  return (
    <Panel title={title} titleId="home-hot-title">
      <QueryStates query={hot} loadingRows={4} failure="热门文档加载失败">
        {(data) => <HotDocumentList documents={data.document ?? []} label="热门文档排行" />}
      </QueryStates>
    </Panel>
  );
}
