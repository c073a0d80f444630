// One article as readers see it: where it is filed, its title, author, date and views, the
// body (HTML the server sanitised), 复制链接 / 分享 and 上一篇 / 下一篇 (decision 074), related
// articles, 举报 and the comments. Its author sees a pending or rejected article with its review state.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ReviewStatus, TargetType } from '../../../../shared/constants';
import { articlePagePath, articleSearchPath, articleShownCategory } from '../../../../shared/page-paths';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Article } from '../../../../shared/types/article';
import { ApiError, errorMessage } from '../../api/client';
import { Breadcrumbs } from '../../kit/breadcrumbs/Breadcrumbs';
import { CopyLinkButton, ShareSheetButton } from '../../kit/share/ShareLink';
import { Avatar } from '../../ui/Avatar';
import { Skeleton } from '../../ui/semi';
import { Tag } from '../../ui/semi-extra';
import { EmptyState, ErrorState } from '../../ui/states';
import { categoryTrail, useArticleCategories } from '../category/category-tree';
import { LazyCommentSection } from '../comment/LazyCommentSection';
import { ReportButton } from '../report/ReportButton';
import { KeywordLinks } from '../search/KeywordLinks';
import { usePermissionCheck } from '../session/use-session';
import { ArticleMeta } from './ArticleList';
import { FavoriteButton } from './FavoriteButton';
import { articleNeighboursQuery, articlePath, articleQuery, relatedArticlesQuery } from './api';
import './article.css';

/** 首页 / 文章资讯 / the article's category and those above it, as the reader files a document. */
function ArticleBreadcrumbs({ article, categoryId }: { article: Article; categoryId?: number }) {
  const categories = useArticleCategories();
  const leaf = articleShownCategory(article, categoryId);
  const trail = leaf ? categoryTrail(categories, leaf) : [];
  return (
    <Breadcrumbs
      crumbs={[
        { label: '首页', to: '/' },
        { label: '文章资讯', to: '/article' },
        ...trail.map((node) => ({ label: node.title ?? '', to: `/article/${node.id}` })),
      ]}
    />
  );
}

function ReviewNotice({ article }: { article: Article }) {
  if (article.status === ReviewStatus.Approved) return null;
  if (article.status === ReviewStatus.Rejected) {
    return (
      <p className="app-article__review app-article__review--rejected" role="status">
        <Tag color="red">未通过审核</Tag>
        {article.reject_reason ? `原因：${article.reject_reason}` : '修改后将重新进入审核。'}
      </p>
    );
  }
  return (
    <p className="app-article__review" role="status">
      <Tag color="orange">审核中</Tag>
      审核通过后其他人才能看到这篇文章。
    </p>
  );
}

/**
 * 上一篇：《…》 and 下一篇：《…》 in the list of the category the article is shown under (the
 * server's answer follows the address's `categoryId`), each linked under that category; 没有了
 * at either end; nothing where the server names neither (a page under no category, MOREDOC).
 */
function ArticleNeighbourLinks({
  article,
  articleKey,
  categoryId,
}: {
  article: Article;
  articleKey: string;
  categoryId?: number;
}) {
  const neighbours = useQuery(articleNeighboursQuery(articleKey, categoryId));
  const { previous, next } = neighbours.data ?? {};
  if (!previous && !next) return null;
  const shown = articleShownCategory(article, categoryId);
  const line = (label: string, neighbour: Article | undefined) => (
    <p className="app-article__neighbour">
      {label}：
      {neighbour ? (
        <>
          《
          <Link to={articlePath(neighbour, articleShownCategory(neighbour, shown))}>{neighbour.title || '无标题'}</Link>
          》
        </>
      ) : (
        '没有了'
      )}
    </p>
  );
  return (
    <nav className="app-article__neighbours" aria-label="上一篇和下一篇">
      {line('上一篇', previous)}
      {line('下一篇', next)}
    </nav>
  );
}

function RelatedArticles({ articleKey }: { articleKey: string }) {
  const related = useQuery(relatedArticlesQuery(articleKey));
  if (!related.data?.length) return null;
  return (
    <section className="app-article__related" aria-labelledby="related-title">
      <h2 id="related-title">相关文章</h2>
      <ul>
        {related.data.map((article) => (
          <li key={article.id}>
            <Link to={articlePath(article)}>{article.title || '无标题'}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The article of `articleKey` (an id or an identifier); `categoryId` is the category of the
 * path it was opened from; `children` come after the body (the feedback page's form).
 */
export function ArticleView({
  articleKey,
  categoryId,
  children,
}: {
  articleKey: string;
  categoryId?: number;
  children?: ReactNode;
}) {
  const query = useQuery(articleQuery(articleKey));
  const client = useQueryClient();
  // The comment count of the byline follows the comment list below (approved comments), without
  // reading the article again, which would count one more view.
  const setCommentCount = useCallback(
    (count: number) =>
      client.setQueryData(articleQuery(articleKey).queryKey, (article) =>
        article && article.comment_count !== count ? { ...article, comment_count: count } : article,
      ),
    [client, articleKey],
  );
  const holds = usePermissionCheck();
  // Keep the address canonical, as the reader does for documents: an article opened under a
  // category it is not in (/article/6/detail/x) moves to its own, breadcrumb and all.
  const navigate = useNavigate();
  const canonical =
    query.data && categoryId !== undefined && !query.data.category_id?.includes(categoryId)
      ? articlePath(query.data, articleShownCategory(query.data))
      : undefined;
  useEffect(() => {
    if (canonical) void navigate(canonical, { replace: true });
  }, [canonical, navigate]);
  if (query.isPending) {
    return (
      <div className="app-article" aria-busy="true">
        <Skeleton.Title style={{ width: '60%', height: 32, marginBottom: 16 }} />
        <Skeleton.Paragraph rows={10} />
      </div>
    );
  }
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return missing ? (
      <EmptyState page title="文章不存在" description="这篇文章可能已被删除，或者还没有通过审核。">
        <Link to="/article">看看其他文章</Link>
      </EmptyState>
    ) : (
      <ErrorState message={errorMessage(query.error, '文章加载失败')} onRetry={() => void query.refetch()} />
    );
  }
  const article = query.data;
  const title = article.title || '无标题';
  return (
    <article className="app-article" aria-labelledby="article-title">
      <ArticleBreadcrumbs article={article} categoryId={categoryId} />
      <h1 id="article-title" className="app-article__title">
        {title}
      </h1>
      <div className="app-article__byline">
        {article.user && <Avatar src={article.user.avatar} name={article.user.username ?? ''} />}
        <ArticleMeta article={article} />
        <span className="app-article__actions">
          {article.id && holds(grpcPermissionPath('ArticleAPI', 'UpdateArticle')) && (
            <Link className="app-article__edit" to={`/admin/article/set?id=${article.id}`}>
              编辑
            </Link>
          )}
          {article.status === ReviewStatus.Approved && article.id && <FavoriteButton articleId={article.id} />}
          {article.status === ReviewStatus.Approved && article.id && (
            <ReportButton type={TargetType.Article} targetId={article.id} title={title} />
          )}
        </span>
      </div>
      <KeywordLinks keywords={article.keywords} pathOf={(word) => articleSearchPath(word)} />
      <ReviewNotice article={article} />
      {/* The body is HTML the server passed through its allow-list (docs/api.md §13.1). */}
      <div className="app-article__content" dangerouslySetInnerHTML={{ __html: article.content ?? '' }} />
      {children}
      {article.status === ReviewStatus.Approved && (
        <footer className="app-article__footer">
          <div className="app-article__share">
            <CopyLinkButton path={articlePagePath(article)} />
            <ShareSheetButton path={articlePagePath(article)} title={title} />
          </div>
          <ArticleNeighbourLinks article={article} articleKey={articleKey} categoryId={categoryId} />
        </footer>
      )}
      <RelatedArticles articleKey={articleKey} />
      {article.status === ReviewStatus.Approved && article.id && (
        <LazyCommentSection type={TargetType.Article} targetId={article.id} onCount={setCommentCount} />
      )}
    </article>
  );
}
