import { Link } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import { DocumentRecordTitle } from '../../features/document/DocumentRecordTitle';
import { userDownloadsQuery } from '../../features/user/api';
import { MemberListPanel, recordTime } from '../../kit/member-list/MemberListPanel';
import { creditName } from '../../features/document/DocumentPrice';
import { useSettings } from '../../features/settings/use-settings';
import { Tag } from '../../ui/semi-extra';
import { EmptyState } from '../../ui/states';
import './member.css';

/** `/member/download`: the documents the member downloaded, paid (with the credits it cost) or free. */
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
        {
          title: '消耗',
          // The credits it cost when the record kept them (downloads paid before that say only 付费).
          cell: (d) =>
            d.is_pay ? (
              <Tag color="orange">{d.price ? `${d.price} ${credits}` : `付费（${credits}）`}</Tag>
            ) : (
              <Tag color="green">免费</Tag>
            ),
        },
        { title: '下载时间', cell: (d) => recordTime(d.created_at) },
      ]}
    />
  );
}
