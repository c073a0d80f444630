import { Link } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import { DocumentRecordTitle } from '../../features/document/DocumentRecordTitle';
import type { Download, DownloadReason } from '../../../../shared/types/document';
import { userDownloadsQuery } from '../../features/user/api';
import { MemberListPanel, recordTime } from '../../kit/member-list/MemberListPanel';
import { creditName } from '../../features/document/DocumentPrice';
import { useSettings } from '../../features/settings/use-settings';
import { Tag } from '../../ui/semi-extra';
import { EmptyState } from '../../ui/states';
import './member.css';

/** What a download cost, and why a free one was free (`reason`; a download recorded before it was kept: 免费). */
function DownloadCost({ download: d, credits }: { download: Download; credits: string }) {
  // Paid before its price was kept (migration 014): only 付费.
  if (d.is_pay) return <Tag color="orange">{d.price ? `${d.price} ${credits}` : `付费（${credits}）`}</Tag>;
  switch (d.reason as DownloadReason | undefined) {
    case 'vip':
      return (
        <span className="app-member-download__cost">
          <Tag color="amber">VIP 免费</Tag>
          {d.price ? (
            <span className="app-member-download__list-price">
              原价 {d.price} {credits}
            </span>
          ) : null}
        </span>
      );
    case 'bought':
      return <Tag color="blue">已购买</Tag>;
    case 'owner':
      return <Tag color="light-blue">我的文档</Tag>;
    case 'review':
      return <Tag color="grey">审核下载</Tag>;
    default:
      return <Tag color="green">免费</Tag>;
  }
}

/**
 * `/member/download`: the documents the member downloaded, paid (with the credits it cost) or free, and why: VIP 免费
 * (with the price the membership spared), 已购买 (bought within download.free_download_duration days), 我的文档, 免费.
 */
export function MemberDownloadPage() {
  const settings = useSettings();
  const credits = creditName(settings);
  return (
    <MemberListPanel
      title="我的下载"
      titleId="downloads-title"
      query={userDownloadsQuery}
      rowsOf={(data) => data.download}
      failure="下载记录加载失败"
      empty={
        <EmptyState title="暂无下载记录" description="下载过的文档会显示在这里。">
          <Link to="/library">去文库看看</Link>
        </EmptyState>
      }
      columns={[
        {
          title: '文档',
          cell: (d) => <DocumentRecordTitle record={d} />,
        },
        { title: '大小', cell: (d) => (d.size ? formatBytes(d.size) : '-') },
        { title: '页数', cell: (d) => d.pages ?? '-' },
        { title: '消耗', cell: (d) => <DownloadCost download={d} credits={credits} /> },
        { title: '下载时间', cell: (d) => recordTime(d.created_at) },
      ]}
    />
  );
}
