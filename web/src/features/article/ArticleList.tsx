import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { Article } from '../../../../shared/types/article';
import { SHORT_DATE_FORMAT, formatDate } from '../../../../shared/format';
import { articleListRequest } from '../../../../shared/page-data';
import { PastLastPage, isPastLastPage } from '../../kit/paging/PastLastPage';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Pager } from '../../ui/Pager';
import { EmptyState } from '../../ui/states';
import { ARTICLE_PAGE_SIZE, articleListQuery, articlePath, recommendedArticlesQuery } from './api';
import './article.css';

/** Date, author, views and comments of an article, as lists and the article page show them. */
export function ArticleMeta({ article }: { article: Article }) {
  return (
    <p className="app-article-meta">
      {article.created_at && (
        <time dateTime={article.created_at}>{formatDate(article.created_at, SHORT_DATE_FORMAT)}</time>
      )}
      {article.user?.username && <span>作者 {article.user.username}</span>}
      <span>{article.view_count ?? 0} 次阅读</span>
      <span>{article.comment_count ?? 0} 条评论</span>
    </p>
  );
}

function ArticleListItem({ article, categoryId }: { article: Article; categoryId?: number }) {
  return (
    <li className="app-article-list__item">
      <h2 className="app-article-list__title">
        <Link to={articlePath(article, categoryId)}>{article.title || '无标题'}</Link>
        {article.recommend_at && <span className="app-article-list__badge">推荐</span>}
      </h2>
      {article.description && <p className="app-article-list__description">{article.description}</p>}
      <ArticleMeta article={article} />
    </li>
  );
}

/**
 * One page of published articles, in `categoryIds` (a category and those below it, as
 * shared/page-data.ts `articleCategoryIds` gives them) or all; `page` lives in the URL, so
 * paging survives reload and the back button. A page past the last one (an old link,
 * ?page=99) says so, with links to the first and the last page (`hrefFor`).
 */
export function ArticleList({
  categoryIds,
  categoryId,
  page,
  onPage,
  hrefFor,
}: {
  categoryIds: readonly number[];
  categoryId?: number;
  page: number;
  onPage: (page: number) => void;
  /** The address of page `n` of this list. */
  hrefFor: (page: number) => string;
}) {
  const list = useQuery(articleListQuery(articleListRequest(categoryIds, page)));
  const total = list.data?.total ?? 0;
  return (
    <QueryStates
      query={list}
      loadingRows={8}
      failure="文章加载失败"
      isEmpty={(data) => data.articles.length === 0}
      empty={
        isPastLastPage(page, total, ARTICLE_PAGE_SIZE) ? (
          <PastLastPage page={page} pages={Math.ceil(total / ARTICLE_PAGE_SIZE)} hrefFor={hrefFor} noun="文章" />
        ) : (
          <EmptyState
            title="暂无文章"
            description={categoryId ? '这个分类下还没有文章。' : '还没有发布的文章，稍后再来看看吧。'}
          />
        )
      }
    >
      {({ articles, total }) => (
        <>
          <ul className="app-article-list">
            {articles.map((article) => (
              <ArticleListItem key={article.id} article={article} categoryId={categoryId} />
            ))}
          </ul>
          <Pager page={page} size={ARTICLE_PAGE_SIZE} total={total} onChange={onPage} />
        </>
      )}
    </QueryStates>
  );
}

/** The recommended articles of the list pages' side column (which the page leaves out when there are none). */
export function RecommendedArticles() {
  const recommended = useQuery(recommendedArticlesQuery());
  return (
    <QueryStates
      query={recommended}
      loadingRows={4}
      failure="推荐文章加载失败"
      isEmpty={(data) => data.articles.length === 0}
      empty={<p className="app-article-aside__empty">暂无推荐文章</p>}
    >
      {({ articles }) => (
        <ol className="app-article-aside__list">
          {articles.map((article) => (
            <li key={article.id}>
              <Link to={articlePath(article)}>{article.title || '无标题'}</Link>
            </li>
          ))}
        </ol>
      )}
    </QueryStates>
  );
}
