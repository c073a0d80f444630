import { Link } from 'react-router-dom';
import { type CategoryNode, useArticleCategories } from '../category/category-tree';

/** 全部 and the top-level article categories; under the current one, its sub-categories. */
export function ArticleCategoryNav({ current, trail }: { current?: CategoryNode; trail: readonly CategoryNode[] }) {
  const categories = useArticleCategories();
  const top = trail[0];
  const children = (trail.at(-1)?.children.length ? trail.at(-1) : trail.at(-2))?.children ?? [];
  if (categories.length === 0) return null;
  return (
    <nav className="app-article-nav" aria-label="文章分类">
      <ul className="app-article-nav__list">
        <li>
          <Link
            to="/article"
            className={current ? 'app-article-nav__link' : 'app-article-nav__link active'}
            aria-current={current ? undefined : 'page'}
          >
            全部
          </Link>
        </li>
        {categories.map((category) => (
          <li key={category.id}>
            <Link
              to={`/article/${category.id}`}
              className={top?.id === category.id ? 'app-article-nav__link active' : 'app-article-nav__link'}
              aria-current={current?.id === category.id ? 'page' : undefined}
            >
              {category.title}
            </Link>
          </li>
        ))}
      </ul>
      {children.length > 0 && (
        <ul className="app-article-nav__list app-article-nav__list--sub">
          {children.map((child) => (
            <li key={child.id}>
              <Link
                to={`/article/${child.id}`}
                className={current?.id === child.id ? 'app-article-nav__link active' : 'app-article-nav__link'}
                aria-current={current?.id === child.id ? 'page' : undefined}
              >
                {child.title}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
