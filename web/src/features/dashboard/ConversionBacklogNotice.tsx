// The dashboard's word about the conversion queue (`GET /api/v1/stats`'s conversion_* fields, for
// holders of GetStats): a backlog when the oldest conversion has waited past BACKLOG_SECONDS, and
// that no process converts when conversions wait a while with none holding a lease (every worker
// stopped: uploads then sit at 待转换 for good). Nothing while all is well.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { DocumentStatus } from '../../../../shared/constants';
import { Notice } from '../../ui/Notice';
import { statsQuery, type Stats } from '../stats/api';
import './dashboard.css';

/** A wait past this is a backlog: a conversion takes seconds to minutes. */
export const BACKLOG_SECONDS = 10 * 60;
/** A worker claims a due job within its poll (1 s): a wait past this with none converting is no fleet. */
export const NO_WORKER_SECONDS = 60;

// Zero fields are omitted on the wire.
const figure = (stats: Stats, key: keyof Stats) => Number(stats[key] ?? 0);

export function ConversionBacklogNotice() {
  const { data } = useQuery(statsQuery());
  if (!data) return null;
  const waiting = figure(data, 'conversion_waiting');
  const seconds = figure(data, 'conversion_waiting_seconds');
  const backlog = waiting > 0 && seconds > BACKLOG_SECONDS;
  const noWorker = waiting > 0 && seconds >= NO_WORKER_SECONDS && figure(data, 'conversion_workers') === 0;
  if (!backlog && !noWorker) return null;
  return (
    <div className="app-admin-dashboard__conversion">
      <Notice
        type="warning"
        description={
          <>
            {backlog && (
              <p>
                转换队列积压：{waiting} 个文档等待转换，最早的已等待 {Math.floor(seconds / 60)} 分钟。
              </p>
            )}
            {noWorker && <p>没有转换进程在运行：等待转换的文档不会开始转换，请检查运行任务的服务。</p>}
            <Link to={`/admin/document/list?status=${DocumentStatus.Pending}`}>查看待转换文档</Link>
          </>
        }
      />
    </div>
  );
}
