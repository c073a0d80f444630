import { useQuery } from '@tanstack/react-query';
import { formatRelativeTime } from '../../../../shared/format';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { plainText } from '../../ui/plain-text';
import { EmptyState } from '../../ui/states';
import { userDynamicsQuery } from '../user/api';

/** The member's ten latest dynamics (check-ins, downloads, uploads…). */
export function RecentActivity() {
  const dynamics = useQuery(userDynamicsQuery(1, 10));
  return (
    <QueryStates
      query={dynamics}
      loadingRows={3}
      failure="动态加载失败"
      isEmpty={(data) => (data.dynamic ?? []).length === 0}
      empty={<EmptyState title="暂无动态" description="签到、下载、上传等操作会记录在这里。" />}
    >
      {(data) => (
        <ul className="app-member__activity">
          {(data.dynamic ?? []).map((item) => (
            <li key={item.id}>
              <span>{plainText(item.content)}</span>
              {item.created_at && <time dateTime={item.created_at}>{formatRelativeTime(item.created_at)}</time>}
            </li>
          ))}
        </ul>
      )}
    </QueryStates>
  );
}
