import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatBytes, formatDate } from '../../../shared/format';
import { errorMessage } from '../api/client';
import { userDownloadsQuery } from '../api/user';
import { useSettings } from '../features/settings/use-site-data';
import { Pager } from '../ui/Pager';
import { Skeleton, Tag } from '../ui/semi';
import { EmptyState, ErrorState } from '../ui/states';
import './member.css';

const PAGE_SIZE = 10;

/** `/member/download`: the documents the member downloaded. */
export function MemberDownloadPage() {
  const settings = useSettings();
  const creditName = settings.system?.credit_name || '积分';
  const [page, setPage] = useState(1);
  const { data, isPending, isError, error, refetch } = useQuery({ ...userDownloadsQuery(page, PAGE_SIZE), placeholderData: keepPreviousData });

  let body;
  if (isPending) body = <Skeleton.Paragraph rows={5} />;
  else if (isError) body = <ErrorState message={errorMessage(error, '下载记录加载失败')} onRetry={() => void refetch()} />;
  else if ((data.download ?? []).length === 0) body = <EmptyState title="暂无下载记录" description="下载过的文档会显示在这里。" />;
  else {
    body = (
      <>
        <table className="app-member__list">
          <thead>
            <tr>
              <th scope="col">文档</th>
              <th scope="col">格式</th>
              <th scope="col">大小</th>
              <th scope="col">页数</th>
              <th scope="col">消耗</th>
              <th scope="col">下载时间</th>
            </tr>
          </thead>
          <tbody>
            {(data.download ?? []).map((d) => (
              <tr key={d.id}>
                <td>{d.title ?? '已删除的文档'}</td>
                <td>{d.ext?.replace('.', '').toUpperCase()}</td>
                <td>{d.size ? formatBytes(d.size) : '-'}</td>
                <td>{d.pages ?? '-'}</td>
                <td>{d.is_pay ? <Tag color="orange">{`${d.score ?? 0} ${creditName}`}</Tag> : <Tag color="green">免费</Tag>}</td>
                <td>{d.created_at ? formatDate(d.created_at, 'YYYY-MM-DD HH:mm') : '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager page={page} size={PAGE_SIZE} total={data.total ?? 0} onChange={setPage} />
      </>
    );
  }
  return (
    <section className="app-panel" aria-labelledby="downloads-title">
      <h1 id="downloads-title" className="app-panel__title">
        我的下载
      </h1>
      {body}
    </section>
  );
}
