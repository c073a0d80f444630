// The dashboard's figures from `GET /api/v1/stats`: the site's counts and its build, for
// holders of GetStats only (the backend gives others the home page's three counts and nothing
// about the program or the server).
import { useQuery } from '@tanstack/react-query';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { errorMessage } from '../../api/client';
import { Panel } from '../../ui/Panel';
import { Button, Skeleton } from '../../ui/semi';
import { ErrorState } from '../../ui/states';
import { statsQuery, type Stats } from '../stats/api';
import { useHeldByOutage, useSaidByOutage } from './outage-context';
import './dashboard.css';

export const STATS_PERMISSION = grpcPermissionPath('ConfigAPI', 'GetStats');

// Zero counts are omitted on the wire, hence the ?? 0.
const count = (stats: Stats, key: keyof Stats) => Number(stats[key] ?? 0);

const FIGURES: readonly { key: keyof Stats; label: string; value?: (stats: Stats) => number }[] = [
  // The accounts: user_count is the home page's, with 网站虚拟注册用户数 (展示配置) added.
  { key: 'user_count', label: '用户', value: (s) => count(s, 'user_count') - count(s, 'virtual_user_count') },
  // As the home page: the documents visitors can list (not those in review, conversion or disabled), the
  // articles published. Named so, they do not contradict the 共 N 条 of the lists.
  { key: 'document_count', label: '公开文档' },
  { key: 'article_count', label: '已发布文章' },
  { key: 'category_count', label: '分类' },
  { key: 'comment_count', label: '评论' },
  { key: 'banner_count', label: '轮播图' },
  { key: 'friendlink_count', label: '友链' },
  { key: 'report_count', label: '举报' },
];

const SYSTEM: readonly { key: keyof Stats; label: string }[] = [
  { key: 'version', label: '程序版本' },
  { key: 'hash', label: '构建哈希' },
  { key: 'build_at', label: '构建时间' },
  { key: 'os', label: '操作系统' },
];

/** Rendered for holders of STATS_PERMISSION only. */
export function DashboardFigures() {
  const stats = useQuery(statsQuery());
  const saidByOutage = useSaidByOutage();
  const heldByOutage = useHeldByOutage();
  const { data, isPending, isError, error, refetch, isFetching } = stats;
  if (isPending || heldByOutage(stats)) {
    return (
      <div className="app-panel">
        <Skeleton.Paragraph rows={4} />
      </div>
    );
  }
  if (saidByOutage(stats)) return null;
  if (isError) {
    return (
      <div className="app-panel">
        <ErrorState message={errorMessage(error, '统计数据加载失败')} onRetry={() => void refetch()} />
      </div>
    );
  }
  return (
    <>
      <Panel
        titleId="dashboard-figures"
        title={
          <>
            网站数据
            <Button size="small" loading={isFetching} onClick={() => void refetch()}>
              刷新
            </Button>
          </>
        }
      >
        <dl className="app-admin-dashboard__figures">
          {FIGURES.map((f) => (
            <div key={f.key} className="app-admin-dashboard__figure" data-figure={f.key}>
              <dt>{f.label}</dt>
              <dd>{(f.value ? f.value(data) : count(data, f.key)).toLocaleString('zh-CN')}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <Panel title="系统信息" titleId="dashboard-system">
        <dl className="app-admin-dashboard__system">
          {SYSTEM.map((f) => (
            <div key={f.key}>
              <dt>{f.label}</dt>
              <dd>{data[f.key] || '-'}</dd>
            </div>
          ))}
        </dl>
      </Panel>
    </>
  );
}
