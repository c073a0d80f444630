// The dashboard's 待处理: how many documents, articles and comments wait for review, how many
// documents failed to convert (to convert again or delete), how many reports and feedback
// messages wait for handling, and how many bank transfers wait for the admin's 确认收款, each a link to its list filtered so (the lists keep their filters
// in the address, decision 049). Only what the user may list is counted; the counts live under
// each list's keys, so that a review elsewhere refreshes them.
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { DocumentStatus, FeedbackStatus, ReviewStatus } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { OrderStatus } from '../../../../shared/vip';
import { unwrap } from '../../api/client';
import { Panel } from '../../ui/Panel';
import { articleKeys, listArticles } from '../article/api';
import { commentKeys, listComments } from '../comment/api';
import { documentKeys, listDocuments } from '../document/api';
import { feedbackKeys, listFeedback } from '../feedback/api';
import { listOrders, orderKeys } from '../order/api';
import { listReports, reportKeys } from '../report/api';
import { usePermissionCheck } from '../session/use-session';
import { useHeldByOutage, useSaidByOutage } from './outage-context';
import './dashboard.css';

interface Waiting {
  key: string;
  label: string;
  unit: string;
  /** The list, filtered to what waits. */
  to: string;
  permission: string;
  queryKey: readonly unknown[];
  count: () => Promise<number>;
}

const WAITING: readonly Waiting[] = [
  {
    key: 'document',
    label: '待审核文档',
    unit: '篇',
    to: `/admin/document/list?status=${DocumentStatus.PendingReview}`,
    permission: grpcPermissionPath('DocumentAPI', 'ListDocument'),
    queryKey: [...documentKeys.admin, 'waiting'],
    count: async () =>
      unwrap(await listDocuments({ status: [DocumentStatus.PendingReview], page: 1, size: 1 })).total ?? 0,
  },
  {
    key: 'failed',
    label: '转换失败文档',
    unit: '篇',
    to: `/admin/document/list?status=${DocumentStatus.Failed}`,
    permission: grpcPermissionPath('DocumentAPI', 'ListDocument'),
    queryKey: [...documentKeys.admin, 'failed'],
    count: async () => unwrap(await listDocuments({ status: [DocumentStatus.Failed], page: 1, size: 1 })).total ?? 0,
  },
  {
    key: 'article',
    label: '待审核文章',
    unit: '篇',
    to: `/admin/article/list?status=${ReviewStatus.Pending}`,
    permission: grpcPermissionPath('ArticleAPI', 'ListArticle'),
    queryKey: [...articleKeys.admin, 'waiting'],
    count: async () => unwrap(await listArticles({ status: [ReviewStatus.Pending], page: 1, size: 1 })).total ?? 0,
  },
  {
    key: 'comment',
    label: '待审核评论',
    unit: '条',
    to: `/admin/comment?status=${ReviewStatus.Pending}`,
    permission: grpcPermissionPath('CommentAPI', 'ListComment'),
    queryKey: [...commentKeys.admin, 'waiting'],
    count: async () => unwrap(await listComments({ status: [ReviewStatus.Pending], page: 1, size: 1 })).total ?? 0,
  },
  {
    key: 'report',
    label: '未处理举报',
    unit: '条',
    to: '/admin/report?status=false',
    permission: grpcPermissionPath('ReportAPI', 'ListReport'),
    queryKey: [...reportKeys.admin, 'waiting'],
    count: async () => unwrap(await listReports({ status: [false], page: 1, size: 1 })).total ?? 0,
  },
  {
    key: 'feedback',
    label: '待处理反馈',
    unit: '条',
    to: `/admin/feedback?status=${FeedbackStatus.New}`,
    permission: grpcPermissionPath('FeedbackAPI', 'ListFeedback'),
    queryKey: [...feedbackKeys.admin, 'waiting'],
    count: async () => unwrap(await listFeedback({ status: [FeedbackStatus.New], page: 1, size: 1 })).total ?? 0,
  },
  {
    // A pending order the member submitted as a transfer (the order list's 待确认收款): the member
    // may have paid, and gets the VIP days only once the admin confirms it.
    key: 'order',
    label: '待确认收款',
    unit: '笔',
    to: `/admin/order?status=${OrderStatus.Pending}&provider=manual`,
    permission: grpcPermissionPath('OrderAPI', 'ListOrder'),
    queryKey: [...orderKeys.admin, 'waiting'],
    count: async () =>
      unwrap(await listOrders({ status: [OrderStatus.Pending], provider: ['manual'], page: 1, size: 1 })).total ?? 0,
  },
];

const waitingFor = (holds: (permission: string) => boolean) => WAITING.filter((item) => holds(item.permission));

/** The counts' queries of what the user may list. */
export const pendingQueries = (holds: (permission: string) => boolean) =>
  waitingFor(holds).map((item) => ({ queryKey: item.queryKey, queryFn: item.count }));

export function PendingWork() {
  const holds = usePermissionCheck();
  const saidByOutage = useSaidByOutage();
  const heldByOutage = useHeldByOutage();
  const items = waitingFor(holds);
  const counts = useQueries({ queries: pendingQueries(holds) });
  if (items.length === 0) return null;
  // Every count failed for the reason the dashboard says once: nothing to show.
  if (counts.every((count) => saidByOutage(count))) return null;
  return (
    <Panel title="待处理" titleId="dashboard-pending">
      <ul className="app-admin-dashboard__pending">
        {items.map((item, i) => {
          const count = counts[i];
          const figure =
            count && saidByOutage(count)
              ? '-'
              : count?.isError
                ? '加载失败'
                : count?.data === undefined || heldByOutage(count)
                  ? '…'
                  : `${count.data} ${item.unit}`;
          return (
            <li key={item.key} data-pending={item.key}>
              <Link
                to={item.to}
                className={`app-admin-dashboard__pending-item${count?.data ? ' app-admin-dashboard__pending-item--due' : ''}`}
              >
                <span>{item.label}</span>
                <strong>{figure}</strong>
              </Link>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}
