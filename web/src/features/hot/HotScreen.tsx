// /hot: the whole 热门文档 ranking (views, downloads and favourites of the last 30 days), a
// page at a time (`?page=`), with its loading, error and empty states.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { HOT_PAGE_SIZE, HOT_SUMMARY, hotPageOf } from '../../../../shared/page-data';
import { PastLastPage, isPastLastPage } from '../../kit/paging/PastLastPage';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Pager } from '../../ui/Pager';
import { Panel } from '../../ui/Panel';
import { EmptyState } from '../../ui/states';
import { hotDocumentsQuery } from '../document/api';
import { HotDocumentList } from './HotDocumentList';

export function HotScreen() {
  const [params, setParams] = useSearchParams();
  const page = hotPageOf(Object.fromEntries(params));
  const hot = useQuery({ ...hotDocumentsQuery(page, HOT_PAGE_SIZE), placeholderData: keepPreviousData });
  return (
    <div className="app-container app-hot-screen">
      <Panel title="热门文档" titleId="hot-title" heading="h1">
        <p className="app-hot-screen__note">{HOT_SUMMARY}，每小时更新。</p>
        <QueryStates
          query={hot}
          loadingRows={8}
          failure="热门文档加载失败"
          isEmpty={(data) => !data.document?.length}
          empty={
            // A page past the last (an old link, after the ranking shrank) is not an empty ranking.
            isPastLastPage(page, hot.data?.total ?? 0, HOT_PAGE_SIZE) ? (
              <PastLastPage
                page={page}
                pages={Math.ceil((hot.data?.total ?? 0) / HOT_PAGE_SIZE)}
                hrefFor={(n) => (n > 1 ? `/hot?page=${n}` : '/hot')}
                noun="文档"
              />
            ) : (
              // The ranking is made hourly: documents read since then are not in it yet.
              <EmptyState title="暂无热门文档" description="排行每小时更新一次，目前还没有上榜的文档，稍后再来看看吧。">
                <Link to="/library">去文库看看</Link>
              </EmptyState>
            )
          }
        >
          {(data) => (
            <>
              <HotDocumentList
                documents={data.document ?? []}
                firstPlace={(page - 1) * HOT_PAGE_SIZE + 1}
                label="热门文档排行"
              />
              <Pager
                page={page}
                size={HOT_PAGE_SIZE}
                total={data.total ?? 0}
                onChange={(next) => setParams(next > 1 ? { page: String(next) } : {})}
              />
            </>
          )}
        </QueryStates>
      </Panel>
    </div>
  );
}
