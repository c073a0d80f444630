import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatDate, formatRelativeTime } from '../../../shared/format';
import { errorMessage, unwrap } from '../api/client';
import { signedTodayQuery, signToday, userDynamicsQuery, userGroupsQuery } from '../features/user/api';
import { QueryStates } from '../kit/query-states/QueryStates';
import { currentUserQuery } from '../features/session/session-actions';
import { UserAvatar } from '../features/session/UserMenu';
import { useSettings } from '../features/settings/use-settings';
import { toastFailure } from '../kit/toasts/failure-toast';
import { toast } from '../kit/toasts/toast-store';
import { Button, Skeleton, Tag } from '../ui/semi';
import { Panel } from '../ui/Panel';
import { plainText } from '../ui/plain-text';
import { EmptyState, ErrorState } from '../ui/states';
import './member.css';

function SignInButton({ creditName }: { creditName: string }) {
  const signed = useQuery(signedTodayQuery());
  const sign = useMutation({
    mutationFn: async (_: void, context) => unwrap(await signToday(context)),
    onSuccess: (record) => toast.success('签到成功', record.award ? `获得 ${record.award} ${creditName}` : undefined),
    onError: (failure) => toastFailure('签到失败', failure),
  });
  if (signed.isPending) return <Button disabled>签到</Button>;
  if (signed.data) return <Button disabled>今日已签到</Button>;
  return (
    <Button theme="solid" loading={sign.isPending} onClick={() => sign.mutate()}>
      每日签到
    </Button>
  );
}

function RecentActivity() {
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

/** `/member`: the member's account at a glance. */
export function MemberOverviewPage() {
  const settings = useSettings();
  const creditName = settings.system?.credit_name || '积分';
  const user = useQuery(currentUserQuery());
  const groups = useQuery(userGroupsQuery());

  if (user.isPending) {
    return (
      <section className="app-panel">
        <Skeleton.Paragraph rows={4} />
      </section>
    );
  }
  if (user.isError) {
    return (
      <section className="app-panel">
        <ErrorState message={errorMessage(user.error, '账号信息加载失败')} onRetry={() => void user.refetch()} />
      </section>
    );
  }
  const u = user.data;
  const figures: readonly [string, number | undefined][] = [
    [creditName, u.credit_count],
    ['文档', u.doc_count],
    ['文章', u.article_count],
    ['收藏', u.favorite_count],
    ['评论', u.comment_count],
  ];
  return (
    <>
      <section className="app-panel" aria-labelledby="member-title">
        <div className="app-member__head">
          <UserAvatar size="large" />
          <div className="app-member__who">
            <h1 id="member-title" className="app-member__name">
              {u.username}
            </h1>
            <p className="app-member__signature">{u.signature || '这个人很懒，什么都没有留下。'}</p>
            <div className="app-member__groups">
              {(groups.data ?? []).map((g) => (
                <Tag key={g.id} color="blue">
                  {g.title}
                </Tag>
              ))}
            </div>
          </div>
          <div className="app-member__actions">
            <SignInButton creditName={creditName} />
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
          {u.created_at && <>注册于 {formatDate(u.created_at, 'YYYY-MM-DD HH:mm')}</>}
          {u.login_at && <> · 上次登录 {formatDate(u.login_at, 'YYYY-MM-DD HH:mm')}</>}
        </p>
      </section>
      <Panel title="最近动态" titleId="member-activity-title">
        <RecentActivity />
      </Panel>
    </>
  );
}
