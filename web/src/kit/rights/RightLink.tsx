// The way to something a member needs a right for (上传文档, 写文章): the link once the server
// allows it (`GET /api/v1/user/cani…`), its reason when it refuses, nothing while it is asked.
// A failed check still offers the link: the screen behind it asks again and says why.
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { rightQuery } from '../../api/right-query';
import './right-link.css';

export function RightLink<Key extends QueryKey>({
  right,
  to,
  label,
  action,
  fallback,
}: {
  right: ReturnType<typeof rightQuery<Key>>;
  to: string;
  label: string;
  /** What is refused, after 暂时不能 (上传文档). */
  action: string;
  /** The reason when the server gives none. */
  fallback: string;
}) {
  const answer = useQuery(right);
  if (answer.isPending) return null;
  if (answer.data && !answer.data.allowed) {
    return (
      <p className="app-right-refusal" role="status">
        暂时不能{action}：{answer.data.reason || fallback}
      </p>
    );
  }
  return (
    <Link className="app-right-link" to={to}>
      {label}
    </Link>
  );
}
