// Where the public pages of documents, articles and categories live (shared/routes.ts): the
// links the SPA renders, the canonical URLs the gateway writes into each page's head, the
// links of the crawler content and the sitemaps all come from here, so they never disagree.

/**
 * A document's page, `/library/{category}/{id}`, under its deepest category: the last of
 * `category` (its categories by depth, as the document lists answer them), else of
 * `category_id`; none without a category.
 */
export function documentPagePath(doc: {
  id?: number;
  category?: readonly { id?: number }[];
  category_id?: readonly number[];
}): string | undefined {
  const category = doc.category?.[doc.category.length - 1]?.id ?? doc.category_id?.[doc.category_id.length - 1];
  return doc.id && category ? `/library/${category}/${doc.id}` : undefined;
}

/** An article's canonical page, `/article/detail/{identifier}` (by id when it has no identifier). */
export function articlePagePath(article: { id?: number; identifier?: string }): string {
  return `/article/detail/${encodeURIComponent(article.identifier || String(article.id ?? ''))}`;
}

/** Category type 0: documents, listed in the library; type 1: articles. */
export function categoryPagePath(category: { id?: number; type?: number }): string {
  return category.type === 1 ? `/article/${category.id ?? ''}` : `/library/${category.id ?? ''}`;
}

/**
 * The category an article is shown under (its breadcrumbs): the one of the address it was
 * opened from when the article is in it, else its own last one; none without categories.
 */
export function articleShownCategory(
  article: { category_id?: readonly number[] },
  pathCategory?: number,
): number | undefined {
  return pathCategory && article.category_id?.includes(pathCategory)
    ? pathCategory
    : article.category_id?.[article.category_id.length - 1];
}

/** The document search for some words, `/search?wd=…`. */
export const searchPath = (wd: string) => `/search?wd=${encodeURIComponent(wd)}`;

/** The article search of a list page (`/article` searches every article, a category's page that category). */
export const articleSearchPath = (wd: string, path = '/article') =>
  wd ? `${path}?wd=${encodeURIComponent(wd)}` : path;
