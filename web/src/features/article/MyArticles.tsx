// 我的文章 (/member/article): the member's own articles in every status — the reject reason
// beside a rejected one, the title linked once published — with edit, delete (to the recycle
// bin, confirmed in place) and 写文章, or why the member may not write.
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ReviewStatus } from '../../../../shared/constants';
import type { Article } from '../../../../shared/types/article';
import { unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { RightLink } from '../../kit/rights/RightLink';
import { MemberListPanel, recordTime } from '../../kit/member-list/MemberListPanel';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { EmptyState } from '../../ui/states';
import { articlePath, deleteArticles, myArticlesQuery, publishRightQuery } from './api';
import { ArticleStatusTag, authorArticleStatusOptions } from './ArticleStatusTag';
import './my-articles.css';

export const WRITE_ARTICLE_PATH = '/member/article/set';

const editPath = (article: Article) => `${WRITE_ARTICLE_PATH}?id=${article.id ?? 0}`;

/** 写文章, or the server's reason when the member may not write. */
function WriteArticle({ userId }: { userId: number }) {
  return (
    <RightLink
      right={publishRightQuery(userId)}
      to={WRITE_ARTICLE_PATH}
      label="写文章"
      action="写文章"
      fallback="您没有发布文章的权限"
    />
  );
}

function DeleteArticle({ article }: { article: Article }) {
  const remove = useMutation({
    mutationFn: async (_: void, context) => unwrap(await deleteArticles([article.id ?? 0], context)),
    onSuccess: () => toast.success('删除成功', `“${article.title ?? ''}”已删除`),
    onError: (error) => toastFailure('删除失败', error),
  });
  return (
    <InlineConfirm
      label="删除"
      question="确定删除？"
      accessibleName={`删除“${article.title ?? ''}”`}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
    />
  );
}

function ArticleStatus({ article }: { article: Article }) {
  return (
    <span className="app-my-articles__status">
      <ArticleStatusTag article={article} options={authorArticleStatusOptions} />
      {article.status === ReviewStatus.Rejected && (
        <span className="app-my-articles__reason">
          {article.reject_reason ? `拒绝原因：${article.reject_reason}` : '未通过审核'}
        </span>
      )}
    </span>
  );
}

export function MyArticles({ userId }: { userId: number }) {
  return (
    <MemberListPanel
      title="我的文章"
      titleId="my-articles-title"
      above={
        <div className="app-my-articles__toolbar">
          <WriteArticle userId={userId} />
        </div>
      }
      query={(page, size) => myArticlesQuery(userId, page, size)}
      rowsOf={(data) => data.article}
      failure="文章列表加载失败"
      empty={<EmptyState title="暂无文章" description="写的文章会显示在这里，审核通过后其他人就能看到。" />}
      columns={[
        {
          title: '标题',
          cell: (article) => (
            <span className="app-my-articles__title">
              {article.status === ReviewStatus.Approved ? (
                <Link to={articlePath(article)}>{article.title}</Link>
              ) : (
                article.title
              )}
            </span>
          ),
        },
        { title: '状态', cell: (article) => <ArticleStatus article={article} /> },
        { title: '阅读', cell: (article) => article.view_count ?? 0 },
        { title: '创建时间', cell: (article) => recordTime(article.created_at) },
        {
          title: '操作',
          cell: (article) => (
            <span className="app-my-articles__actions">
              <Link
                className="app-my-articles__edit"
                to={editPath(article)}
                aria-label={`编辑“${article.title ?? ''}”`}
              >
                编辑
              </Link>
              <DeleteArticle article={article} />
            </span>
          ),
        },
      ]}
    />
  );
}
