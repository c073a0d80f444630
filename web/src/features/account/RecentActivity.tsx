import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatRelativeTime } from '../../../../shared/format';
import { useLastPageFallback, usePageParam } from '../../kit/member-list/page-param';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Pager } from '../../ui/Pager';
import { plainText } from '../../ui/plain-text';
import { EmptyState } from '../../ui/states';
import { userDynamicsQuery } from '../user/api';

const PAGE_SIZE = 10;

/**
 * The member's dynamics (check-ins, downloads, uploads…), newest first, ten a page: the credits
 * each earned or spent are written in them, so the older pages are their history. The page is
 * kept in the address (`/member?page=3`), as the member lists keep theirs: the back from another
 * screen returns to it, and a page past the last goes to the last, not to 暂无动态.
 */
export function RecentActivity() {
  const pageParam = usePageParam();
  const [page, setPage] = pageParam;
  const dynamics = useQuery({ ...userDynamicsQuery(page, PAGE_SIZE), placeholderData: keepPreviousData });
  const pastTheLast = useLastPageFallback(
    pageParam,
    dynamics.isSuccess && !dynamics.isPlaceholderData
      ? { rows: (dynamics.data.dynamic ?? []).length, total: dynamics.data.total ?? 0 }
      : undefined,
    PAGE_SIZE,
  );
  return (
    <QueryStates
      query={dynamics}
      loadingRows={3}
      failure="动态加载失败"
      isEmpty={(data) => !pastTheLast && (data.dynamic ?? []).length === 0}
      empty={<EmptyState title="暂无动态" description="签到、下载、上传等操作会记录在这里。" />}
    >
      {(data) => (
        <>
          <ul className="app-member__activity">
            {(data.dynamic ?? []).map((item) => (
              <li key={item.id}>
                <span>{plainText(item.content)}</span>
                {item.created_at && <time dateTime={item.created_at}>{formatRelativeTime(item.created_at)}</time>}
              </li>
            ))}
          </ul>
          <Pager page={page} size={PAGE_SIZE} total={data.total ?? 0} onChange={setPage} />
        </>
      )}
    </QueryStates>
  );
}
