import { sql, type ExpressionBuilder, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../../db';
import { like, notBelowZero } from '../../db/dialect';
import { now, type ArticleTable, type DB } from '../../db/schema';
import { PUBLISHED_ARTICLE_STATUS } from '../../../shared/constants';
import { applyPaging, countOf, likePattern, parseOrder } from '../../wire/request';

// The `article` table (soft-deleted rows are the recycle bin) and `article_category`, the
// links to article categories.

export type ArticleRow = Selectable<ArticleTable>;
export type ArticleColumns = Omit<
  Insertable<ArticleTable>,
  'id' | 'view_count' | 'favorite_count' | 'comment_count' | 'created_at' | 'updated_at' | 'deleted_at'
>;
/** What UpdateArticle replaces (identifier, counters and author stay). */
export type ArticleEdit = Omit<ArticleColumns, 'user_id'>;

/** `order` may name these (docs/moredoc.md §6); lists never sort by text columns. */
export const ARTICLE_ORDER_COLUMNS = [
  'id',
  'view_count',
  'favorite_count',
  'comment_count',
  'recommend_at',
  'created_at',
  'updated_at',
  'deleted_at',
];

/** Every column but `content`: lists never carry the body. */
const LIST_COLUMNS = [
  'id',
  'identifier',
  'title',
  'keywords',
  'description',
  'user_id',
  'view_count',
  'favorite_count',
  'comment_count',
  'status',
  'reject_reason',
  'recommend_at',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;
export type ArticleListRow = Pick<ArticleRow, (typeof LIST_COLUMNS)[number]>;

/**
 * The articles visitors can list: published, outside the recycle bin. What the public lists
 * show and every count visitors see of articles counts (GetStats' `article_count` here;
 * `category.doc_count` in the category module's recount, with the same constant): docs/api.md,
 * "Counts visitors see".
 */
export const publishedArticlesOf = (db: Database) =>
  db.selectFrom('article').where('deleted_at', 'is', null).where('status', '=', PUBLISHED_ARTICLE_STATUS);

export async function findArticle(
  db: Database,
  key: { id: number } | { identifier: string },
): Promise<ArticleRow | undefined> {
  const query = db.selectFrom('article').selectAll();
  return (
    'id' in key ? query.where('id', '=', key.id) : query.where('identifier', '=', key.identifier)
  ).executeTakeFirst();
}

/** Which of these identifiers name a published article outside the recycle bin. */
export async function publishedIdentifiers(db: Database, identifiers: readonly string[]): Promise<string[]> {
  if (!identifiers.length) return [];
  const rows = await publishedArticlesOf(db)
    .select('identifier')
    .where('identifier', 'in', [...identifiers])
    .execute();
  return rows.map((r) => r.identifier);
}

export async function identifierTaken(db: Database, identifier: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('article')
    .select('id')
    .where('identifier', '=', identifier)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertArticle(db: Database, columns: ArticleColumns): Promise<ArticleRow> {
  const ts = now();
  return db
    .insertInto('article')
    .values({ ...columns, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateArticle(db: Database, id: number, columns: Partial<ArticleEdit>): Promise<void> {
  await db
    .updateTable('article')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function addView(db: Database, id: number): Promise<void> {
  await db
    .updateTable('article')
    .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Moves the favourite counter (FavoriteAPI of type 1), never below zero. */
export async function bumpFavoriteCount(db: Database, id: number, delta: number): Promise<void> {
  await db
    .updateTable('article')
    .set({ favorite_count: notBelowZero(db, sql<number>`favorite_count + ${delta}`) })
    .where('id', '=', id)
    .execute();
}

/** The favourite counter of a published article outside the recycle bin (undefined for any other). */
export async function publishedFavoriteCount(db: Database, id: number): Promise<number | undefined> {
  const row = await publishedArticlesOf(db).select('favorite_count').where('id', '=', id).executeTakeFirst();
  return row?.favorite_count;
}

export async function setCommentCount(db: Database, id: number, count: number): Promise<void> {
  await db.updateTable('article').set({ comment_count: count }).where('id', '=', id).execute();
}

/** Category ids per article, in link order. */
export async function categoryIdsOf(db: Database, articleIds: readonly number[]): Promise<Map<number, number[]>> {
  const links = articleIds.length
    ? await db
        .selectFrom('article_category')
        .select(['article_id', 'category_id'])
        .where('article_id', 'in', [...articleIds])
        .orderBy('id')
        .execute()
    : [];
  const byArticle = new Map<number, number[]>();
  for (const link of links)
    byArticle.set(link.article_id, [...(byArticle.get(link.article_id) ?? []), link.category_id]);
  return byArticle;
}

/** Replaces the category links of the articles. */
export async function setCategoryLinks(
  db: Database,
  articleIds: readonly number[],
  categoryIds: readonly number[],
): Promise<void> {
  if (!articleIds.length) return;
  await db
    .deleteFrom('article_category')
    .where('article_id', 'in', [...articleIds])
    .execute();
  const ts = now();
  const rows = articleIds.flatMap((articleId) =>
    categoryIds.map((categoryId) => ({
      article_id: articleId,
      category_id: categoryId,
      created_at: ts,
      updated_at: ts,
    })),
  );
  if (rows.length) await db.insertInto('article_category').values(rows).execute();
}

/** The articles among `ids` with their author and state (`deleted`: in the recycle bin or not). */
export async function articlesByIds(db: Database, ids: readonly number[], deleted: boolean) {
  if (!ids.length) return [];
  return db
    .selectFrom('article')
    .select(['id', 'user_id', 'status', 'title', 'identifier', 'recommend_at'])
    .where('id', 'in', [...ids])
    .where('deleted_at', deleted ? 'is not' : 'is', null)
    .execute();
}

export async function setDeletedAt(db: Database, ids: readonly number[], deletedAt: string | null): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('article')
    .set({ deleted_at: deletedAt })
    .where('id', 'in', [...ids])
    .execute();
}

export async function setRecommendAt(db: Database, ids: readonly number[], recommendAt: string | null): Promise<void> {
  await db
    .updateTable('article')
    .set({ recommend_at: recommendAt })
    .where('id', 'in', [...ids])
    .execute();
}

export async function setReview(
  db: Database,
  ids: readonly number[],
  status: number,
  rejectReason: string,
): Promise<void> {
  await db
    .updateTable('article')
    .set({ status, reject_reason: rejectReason, updated_at: now() })
    .where('id', 'in', [...ids])
    .execute();
}

/** Removes articles for good, with their category links. */
export async function purgeArticles(db: Database, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await db
    .deleteFrom('article_category')
    .where('article_id', 'in', [...ids])
    .execute();
  await db
    .deleteFrom('article')
    .where('id', 'in', [...ids])
    .execute();
}

export async function recycledIds(db: Database): Promise<number[]> {
  return (await db.selectFrom('article').select('id').where('deleted_at', 'is not', null).execute()).map((r) => r.id);
}

/** Articles not in the recycle bin, of any status, written by the user. */
export async function countArticlesBy(db: Database, userId: number): Promise<number> {
  return countOf(db.selectFrom('article').where('user_id', '=', userId).where('deleted_at', 'is', null));
}

/** Filed under one of these categories (a link of `article_category`). */
const filedUnder = (categoryIds: readonly number[]) => (eb: ExpressionBuilder<DB, 'article'>) =>
  eb(
    'id',
    'in',
    eb
      .selectFrom('article_category')
      .select('article_id')
      .where('category_id', 'in', [...categoryIds]),
  );

export interface ArticleFilter {
  /** The recycle bin instead of the live articles. */
  deleted: boolean;
  statuses: number[];
  categoryIds: number[];
  userIds: number[];
  /** Recommended only (true), not recommended only (false), or both. */
  recommended?: boolean;
  wd: string;
  /** `wd` also searches the body (the recycle bin's search). */
  wdInContent?: boolean;
  order: string;
  page: number;
  size: number;
}

export async function listArticles(
  db: Database,
  filter: ArticleFilter,
): Promise<{ rows: ArticleListRow[]; total: number }> {
  let query = db.selectFrom('article').where('deleted_at', filter.deleted ? 'is not' : 'is', null);
  if (filter.statuses.length) query = query.where('status', 'in', filter.statuses);
  if (filter.userIds.length) query = query.where('user_id', 'in', filter.userIds);
  if (filter.recommended !== undefined) query = query.where('recommend_at', filter.recommended ? 'is not' : 'is', null);
  if (filter.categoryIds.length) query = query.where(filedUnder(filter.categoryIds));
  if (filter.wd.trim()) {
    const p = likePattern(filter.wd);
    query = query.where((eb) =>
      eb.or([
        like(db, 'title', p),
        like(db, 'keywords', p),
        like(db, 'description', p),
        ...(filter.wdInContent ? [like(db, 'content', p)] : []),
      ]),
    );
  }
  let rowsQuery = query.select(LIST_COLUMNS);
  const order = parseOrder(filter.order, ARTICLE_ORDER_COLUMNS, {
    multiple: false,
    nullable: ['recommend_at', 'deleted_at'],
  });
  for (const o of order) rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  // The public lists name no order: theirs is this one, newest first (articleNeighbours follows it).
  rowsQuery = rowsQuery.orderBy('id', 'desc');
  const rows = await applyPaging(rowsQuery, filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

/**
 * Published articles that share categories or keywords with `article`: more shared
 * categories first, then recommended, then newest.
 */
export async function relatedArticles(
  db: Database,
  article: { id: number; keywords: string },
  categoryIds: readonly number[],
  limit: number,
): Promise<ArticleListRow[]> {
  const words = [
    ...new Set(
      article.keywords
        .split(/[,，\s]+/)
        .map((w) => w.trim())
        .filter((w) => [...w].length >= 2),
    ),
  ].slice(0, 5);
  const sharedCategories = categoryIds.length
    ? sql<number>`(SELECT count(*) FROM article_category ac WHERE ac.article_id = article.id AND ac.category_id IN (${sql.join([...categoryIds])}))`
    : sql<number>`0`;
  const sharedWords = words.length
    ? sql<number>`(${sql.join(
        words.map(
          (w) =>
            sql`CASE WHEN ${like(db, 'article.title', likePattern(w))} OR ${like(db, 'article.keywords', likePattern(w))} THEN 1 ELSE 0 END`,
        ),
        sql` + `,
      )})`
    : sql<number>`0`;
  const rows = await publishedArticlesOf(db)
    .select(LIST_COLUMNS)
    .select([sharedCategories.as('shared_categories'), sharedWords.as('shared_words')])
    .where('id', '!=', article.id)
    .where((eb) => eb.or([eb(sharedCategories, '>', 0), eb(sharedWords, '>', 0)]))
    .orderBy('shared_categories', 'desc')
    .orderBy('shared_words', 'desc')
    .orderBy(sql`recommend_at IS NULL`)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ shared_categories: _c, shared_words: _w, ...row }) => row);
}

/**
 * The published articles just before and after article `id` in the public list of these
 * categories, which lists them newest first (`id desc`, as `listArticles` without an order):
 * the next newer one (上一篇) and the next older one (下一篇).
 */
export async function articleNeighbours(
  db: Database,
  id: number,
  categoryIds: readonly number[],
): Promise<{ previous?: ArticleListRow; next?: ArticleListRow }> {
  const listed = publishedArticlesOf(db).where(filedUnder(categoryIds)).select(LIST_COLUMNS).limit(1);
  const previous = await listed.where('id', '>', id).orderBy('id', 'asc').executeTakeFirst();
  const next = await listed.where('id', '<', id).orderBy('id', 'desc').executeTakeFirst();
  return { previous, next };
}

/** Whole rows of these articles (body included), for the search index. */
export async function articlesForIndex(db: Database, ids: readonly number[]): Promise<ArticleRow[]> {
  if (!ids.length) return [];
  return db
    .selectFrom('article')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** Ids of the published articles outside the recycle bin (at most `limit`). */
export async function publishedArticleIds(db: Database, limit?: number): Promise<number[]> {
  let query = publishedArticlesOf(db).select('id').orderBy('id');
  if (limit !== undefined) query = query.limit(limit);
  return (await query.execute()).map((r) => r.id);
}

/** The published articles among `ids`, with the list columns (the rows of search hits). */
export async function listRowsByIds(db: Database, ids: readonly number[]): Promise<ArticleListRow[]> {
  if (!ids.length) return [];
  return publishedArticlesOf(db)
    .select(LIST_COLUMNS)
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** How many articles visitors can list (the `article_count` of GetStats, and the dashboard's). */
export const countPublishedArticles = (db: Database) => countOf(publishedArticlesOf(db));

/** Published articles for the sitemap. */
export async function publishedArticleLinks(db: Database) {
  return publishedArticlesOf(db).select(['id', 'identifier', 'updated_at']).orderBy('id').execute();
}

/** How many articles are published and the latest change among them: what the sitemaps follow. */
export async function publishedArticleStamp(db: Database): Promise<{ count: number; latest: string | null }> {
  return publishedArticlesOf(db)
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('updated_at').as('latest')])
    .executeTakeFirstOrThrow();
}

export interface ArticleTarget {
  id: number;
  title: string;
  identifier: string;
  user_id: number;
}

/** Published articles among `ids` (not in the recycle bin), by id: what readers may comment on or report. */
export async function publishedArticles(db: Database, ids: readonly number[]): Promise<Map<number, ArticleTarget>> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  const rows = unique.length
    ? await publishedArticlesOf(db).select(['id', 'title', 'identifier', 'user_id']).where('id', 'in', unique).execute()
    : [];
  return new Map(rows.map((r) => [r.id, r]));
}

/** Title and identifier of these articles, wherever they are (lists of comments and reports name them). */
export async function articleTitles(
  db: Database,
  ids: readonly number[],
): Promise<Map<number, { title: string; identifier: string }>> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  const rows = unique.length
    ? await db.selectFrom('article').select(['id', 'title', 'identifier']).where('id', 'in', unique).execute()
    : [];
  return new Map(rows.map((r) => [r.id, { title: r.title, identifier: r.identifier }]));
}
