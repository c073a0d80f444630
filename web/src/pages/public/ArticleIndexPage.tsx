import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { articleCategoryIds, articleCategoryOf, articleListState } from '../../../../shared/page-data';
import { searchPath } from '../../../../shared/page-paths';
import { ArticleCategoryNav } from '../../features/article/ArticleCategoryNav';
import { recommendedArticlesQuery } from '../../features/article/api';
import { ArticleList, RecommendedArticles } from '../../features/article/ArticleList';
import { ArticleSearchBox, ArticleSearchResults } from '../../features/article/ArticleSearch';
import {
  categoryTrail,
  findCategory,
  useArticleCategories,
  useCategoryList,
} from '../../features/category/category-tree';
import { ArticleReader } from './ArticleDetailPage';

/**
 * `/article` and `/article/{category}`: the articles of a category (and below it), paged in
 * the URL, with the search box and the recommended ones aside; `/article?wd=…` the search's
 * hits, `/article/{category}?wd=…` those in the category (and below it), saying so. Where no article category has the key (MOREDOC's footer links, `/article/about`),
 * the article with that identifier is shown instead.
 */
export function ArticleIndexPage() {
  const { category } = useParams();
  const [search, setSearch] = useSearchParams();
  const { pathname } = useLocation();
  const categories = useArticleCategories();
  const allCategories = useCategoryList();
  // No recommended article: no 推荐文章 box saying so on every list (as the search page's side column).
  const recommended = useQuery(recommendedArticlesQuery());
  const recommendedNone = recommended.isSuccess && recommended.data.articles.length === 0;
  // The same decision and state as the page's route data (shared/page-data.ts).
  const listed = articleCategoryOf(allCategories, category);
  if (category && !listed) return <ArticleReader key={category} articleKey={category} />;
  const node = listed?.id ? findCategory(categories, listed.id) : undefined;

  const { page, wd } = articleListState(Object.fromEntries(search));
  const trail = node?.id ? categoryTrail(categories, node.id) : [];
  // A category's page lists, and searches, that category and those below it.
  const categoryIds = listed?.id ? articleCategoryIds(allCategories, listed.id) : [];
  const paramsFor = (next: number) => {
    const params = new URLSearchParams(search);
    if (next > 1) params.set('page', String(next));
    else params.delete('page');
    return params;
  };
  const goTo = (next: number) => {
    setSearch(paramsFor(next));
    window.scrollTo({ top: 0 });
  };
  const hrefFor = (next: number) => {
    const query = paramsFor(next).toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  return (
    <div className="app-container app-article-index">
      {/* Beside the list at the top of the side column; on a phone, where the side column goes
          below the list, above it (after ten articles and the pager it was out of reach). */}
      <section className="app-article-index__search" aria-label="搜索文章">
        <ArticleSearchBox key={wd} initial={wd} path={node ? pathname : '/article'} />
      </section>
      <div className="app-article-index__main">
        {wd ? (
          <>
            <h1 className="app-article-index__title">
              {node ? `在“${node.title ?? ''}”中搜索：${wd}` : `搜索：${wd}`}
            </h1>
            {node && (
              <p className="app-article-index__description">
                <Link to={`/article?wd=${encodeURIComponent(wd)}`}>在全部文章中搜索“{wd}”</Link>
              </p>
            )}
            {/* The documents' search links here ("找文章？"); a reader who looked for a document
                among the articles gets the way back, with the same words. */}
            <p className="app-article-index__description app-article-index__elsewhere">
              找文档？<Link to={searchPath(wd)}>在文库资料中搜索“{wd}”</Link>
            </p>
            <ArticleSearchResults wd={wd} page={page} categoryIds={categoryIds} onPage={goTo} hrefFor={hrefFor} />
          </>
        ) : (
          <>
            <h1 className="app-article-index__title">{node?.title ?? '文章资讯'}</h1>
            {node?.description && <p className="app-article-index__description">{node.description}</p>}
            <ArticleCategoryNav current={node} trail={trail} />
            <ArticleList
              categoryIds={categoryIds}
              categoryId={listed?.id}
              page={page}
              onPage={goTo}
              hrefFor={hrefFor}
            />
          </>
        )}
      </div>
      {!recommendedNone && (
        <aside className="app-article-index__aside" aria-label="文章推荐">
          <section aria-labelledby="recommended-title">
            <h2 id="recommended-title" className="app-article-aside__title">
              推荐文章
            </h2>
            <RecommendedArticles />
          </section>
        </aside>
      )}
    </div>
  );
}
