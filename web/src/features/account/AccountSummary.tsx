import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatDate } from '../../../../shared/format';
import type { User } from '../../../../shared/types/user';
import { Tag } from '../../ui/semi-extra';
import { myCommentCountQuery } from '../comment/api';
import { myDocumentCountQuery } from '../document/api';
import { UserAvatar } from '../session/UserMenu';
import { userGroupsQuery } from '../user/api';
import { CheckInButton } from './CheckInButton';

/**
 * The member's account at a glance: who, their groups, the check-in, their figures. 文档, 文章
 * and 评论 count all of theirs, as 我的文档 and 我的文章 list them and a comment's section shows
 * its author their own in review (`user.doc_count` and `user.comment_count` count only the
 * public ones, which others see); '-' until the count has come.
 */
export function AccountSummary({ user, creditName }: { user: User; creditName: string }) {
  const groups = useQuery(userGroupsQuery());
  const documents = useQuery(myDocumentCountQuery(user.id ?? 0));
  const comments = useQuery(myCommentCountQuery(user.id ?? 0));
  const figures: readonly [string, number | string | undefined][] = [
    [creditName, user.credit_count],
    ['文档', documents.data ?? '-'],
    ['文章', user.article_count],
    ['收藏', user.favorite_count],
    ['评论', comments.data ?? '-'],
  ];
  return (
    <section className="app-panel" aria-labelledby="member-title">
      <div className="app-member__head">
        <UserAvatar size="large" />
        <div className="app-member__who">
          <h1 id="member-title" className="app-member__name">
            {user.username}
          </h1>
          <p className="app-member__signature">{user.signature || '这个人很懒，什么都没有留下。'}</p>
          <div className="app-member__groups">
            {(groups.data ?? []).map((g) => (
              <Tag key={g.id} color="blue">
                {g.title}
              </Tag>
            ))}
          </div>
        </div>
        <div className="app-member__actions">
          <CheckInButton creditName={creditName} />
          <Link to="/member/profile">编辑资料</Link>
        </div>
      </div>
      <dl className="app-member__figures">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value ?? 0}</dd>
          </div>
        ))}
      </dl>
      <p className="app-member__meta">
        {user.created_at && <>注册于 {formatDate(user.created_at, 'YYYY-MM-DD HH:mm')}</>}
        {user.login_at && <> · 上次登录 {formatDate(user.login_at, 'YYYY-MM-DD HH:mm')}</>}
      </p>
    </section>
  );
}
