import {
  sql,
  type ExpressionBuilder,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type SqlBool,
  type Updateable,
} from 'kysely';
import type { Database } from '../../db';
import { renderingRoute } from '../../platform/convert/formats';
import { databaseNow, engineOf, jsonRowsOf, like, likePairs, lockRows, notBelowZero } from '../../db/dialect';
import { now, type DB, type DocumentTable } from '../../db/schema';
import { DocumentStatus, LISTED_DOCUMENT_STATUS } from '../../../shared/constants';
import { applyPaging, countOf, likePattern, parseOrder } from '../../wire/request';

// The tables of the document module: `document`, its category links `document_category`,
// the extracted text `document_content`, ratings `document_score` and the related-documents
// cache `document_related` (migrations 002 and 006).

export type DocumentRow = Selectable<DocumentTable>;
type DocumentColumns = Updateable<DocumentTable>;
export type NewDocument = Omit<Insertable<DocumentTable>, 'id' | 'created_at' | 'updated_at'>;

/** The columns a request may name in `field` and `order`. */
export const DOCUMENT_COLUMNS = [
  'id',
  'title',
  'keywords',
  'description',
  'user_id',
  'width',
  'height',
  'preview',
  'pages',
  'uuid',
  'download_count',
  'view_count',
  'favorite_count',
  'comment_count',
  'score',
  'score_count',
  'price',
  'size',
  'ext',
  'status',
  'enable_gzip',
  'convert_error',
  'preview_ext',
  'language',
  'deleted_user_id',
  'recommend_at',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

/** Statuses strangers never see: disabled, pending review, rejected (docs/moredoc.md §12). */
export const HIDDEN_STATUSES: readonly number[] = [
  DocumentStatus.Disabled,
  DocumentStatus.PendingReview,
  DocumentStatus.ReviewRejected,
];
/** Statuses the converter picks up. */
export const WAITING_STATUSES: readonly number[] = [
  DocumentStatus.Pending,
  DocumentStatus.Converting,
  DocumentStatus.Reconvert,
];

/** Could a stranger see this document (not in the recycle bin, not hidden)? */
export function isPublic(doc: Pick<DocumentRow, 'status' | 'deleted_at'>): boolean {
  return doc.deleted_at === null && !HIDDEN_STATUSES.includes(doc.status);
}

/** Statuses search and the sitemaps never list: the hidden ones, and a failed conversion (nothing to read). */
export const UNSEARCHABLE_STATUSES: readonly number[] = [...HIDDEN_STATUSES, DocumentStatus.Failed];

/** Could a stranger find this document by searching: public, and read or on its way to be (not failed)? */
export function isSearchable(doc: Pick<DocumentRow, 'status' | 'deleted_at'>): boolean {
  return doc.deleted_at === null && !UNSEARCHABLE_STATUSES.includes(doc.status);
}

// ---------------------------------------------------------------------------------------
// Lookups

export async function documentById(db: Database, id: number): Promise<DocumentRow | undefined> {
  return db.selectFrom('document').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function documentByUuid(db: Database, uuid: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('document').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

/** The names of a document's uploader and deleter, read with its row (null: no such user). */
export interface DocumentNames {
  username: string | null;
  deleted_username: string | null;
}

/** The DocumentNames columns of a query on `document`: one lookup by primary key each, in the same statement. */
function namesOfDocument(eb: ExpressionBuilder<DB, 'document'>) {
  return [
    eb.selectFrom('user').select('user.username').whereRef('user.id', '=', 'document.user_id').as('username'),
    eb
      .selectFrom('user')
      .select('user.username')
      .whereRef('user.id', '=', 'document.deleted_user_id')
      .as('deleted_username'),
  ];
}

/**
 * A document (by id or uuid) with its DocumentNames, every other document made from its file
 * (recycled ones included, by id: what readablePages weighs), its text (the first `textLength`
 * characters, or all of it: null) and its categories (as categoriesOfDocuments reads them), in
 * one query: GetDocument's lookups in one round trip.
 */
export async function documentWithFile(
  db: Database,
  key: { id: number } | { uuid: string },
  textLength: number | null,
): Promise<
  | { row: DocumentRow & DocumentNames; sameFile: DocumentRow[]; text: DocumentText; categories: DocumentCategory[] }
  | undefined
> {
  const isTarget = (eb: ExpressionBuilder<DB, 'document'>) =>
    'id' in key ? eb('document.id', '=', key.id) : eb('document.uuid', '=', key.uuid);
  const targetId = 'id' in key ? sql`${key.id}` : sql`SELECT id FROM document WHERE uuid = ${key.uuid}`;
  const rows = await db
    .selectFrom('document')
    .leftJoin('document_content', (join) => join.onRef('document_content.document_id', '=', 'document.id').on(isTarget))
    .selectAll('document')
    .select((eb) => [
      ...namesOfDocument(eb),
      (textLength === null
        ? sql.ref<string>('document_content.content')
        : sql<string>`substr(document_content.content, 1, ${textLength})`
      ).as('text_content'),
      'document_content.pages as text_pages',
      jsonRowsOf(db, categoryLinks(targetId), ['category_id', 'title', 'parent_id', 'depth'], 'link_id').as(
        'categories_json',
      ),
    ])
    .where((eb) =>
      eb.or([
        isTarget(eb),
        eb.and([
          eb('document.hash', '!=', ''),
          eb(
            'document.hash',
            '=',
            eb
              .selectFrom('document as target')
              .select('target.hash')
              .where((t) => ('id' in key ? t('target.id', '=', key.id) : t('target.uuid', '=', key.uuid))),
          ),
        ]),
      ]),
    )
    .orderBy('document.id')
    .execute();
  const documents = rows.map(
    ({ text_content: _content, text_pages: _pages, categories_json: _categories, ...row }) => row,
  );
  const at = rows.findIndex((r) => ('id' in key ? r.id === key.id : r.uuid === key.uuid));
  if (at < 0) return undefined;
  const target = rows[at]!;
  return {
    row: documents[at]!,
    sameFile: target.hash ? documents : [documents[at]!],
    text:
      target.text_pages === null
        ? { content: '', pages: 0 }
        : { content: target.text_content ?? '', pages: target.text_pages },
    categories: JSON.parse(target.categories_json) as DocumentCategory[],
  };
}

/** The documents with these ids (recycled ones included), in no particular order. */
export async function documentsByIds(db: Database, ids: readonly number[]): Promise<DocumentRow[]> {
  if (!ids.length) return [];
  return db
    .selectFrom('document')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** Every document made from the file with this MD5 (recycled ones included). */
export async function documentsByHash(db: Database, hash: string): Promise<DocumentRow[]> {
  return db.selectFrom('document').selectAll().where('hash', '=', hash).orderBy('id').execute();
}

/**
 * Is any document (recycled ones included) made from this file: of this hash, or uploaded as it
 * (a document whose hash is its file's under another rendering route: documentHashFor)?
 */
export async function hashHasDocuments(db: Database, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('document')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('hash', '=', hash),
        eb('attachment_id', 'in', eb.selectFrom('attachment').select('id').where('hash', '=', hash)),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The uploader's first document (not in the recycle bin) made from the file with this MD5 and
 * rendered as one of extension `ext` is: uploaded again, the file would make a second document of
 * the same pages (the upload form says so: decision 090).
 */
export async function ownDocumentOfFile(
  db: Database,
  userId: number,
  fileHash: string,
  ext: string,
): Promise<{ id: number; title: string; status: number } | undefined> {
  const rows = await db
    .selectFrom('document')
    .select(['id', 'title', 'ext', 'status'])
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('attachment_id', 'in', (eb) => eb.selectFrom('attachment').select('id').where('hash', '=', fileHash))
    .orderBy('id')
    .execute();
  const found = rows.find((d) => renderingRoute(d.ext || ext) === renderingRoute(ext));
  return found && { id: found.id, title: found.title, status: found.status };
}

/**
 * The MD5 of the uploaded file these documents were made from: their upload's, which differs from
 * their hash when the same bytes were first made a document of another rendering route; their hash
 * for a document without an upload (imported from MOREDOC).
 */
export async function fileHashOf(
  db: Database,
  documents: readonly Pick<DocumentRow, 'hash' | 'attachment_id'>[],
): Promise<string> {
  const ids = documents.map((d) => d.attachment_id).filter((id) => id > 0);
  const upload = ids.length
    ? await db.selectFrom('attachment').select('hash').where('id', 'in', ids).orderBy('id').executeTakeFirst()
    : undefined;
  return upload?.hash || (documents[0]?.hash ?? '');
}

/** fileHashOf of each document on its own, in one query for all of them (a purge of many). */
export async function fileHashesOf(
  db: Database,
  documents: readonly Pick<DocumentRow, 'hash' | 'attachment_id'>[],
): Promise<string[]> {
  const ids = [...new Set(documents.map((d) => d.attachment_id).filter((id) => id > 0))];
  const uploads = new Map(
    ids.length
      ? (await db.selectFrom('attachment').select(['id', 'hash']).where('id', 'in', ids).execute()).map((a) => [
          a.id,
          a.hash,
        ])
      : [],
  );
  return documents.map((d) => uploads.get(d.attachment_id) || d.hash);
}

// ---------------------------------------------------------------------------------------
// Writes

/**
 * Inserts a document; undefined (and nothing inserted) when its uuid is taken. `at`: the
 * database's now, the day the upload reward's daily limit counts it on.
 */
export async function insertDocument(db: Database, values: NewDocument, at: Date): Promise<DocumentRow | undefined> {
  const ts = at.toISOString();
  return db
    .insertInto('document')
    .values({ ...values, created_at: ts, updated_at: ts })
    .onConflict((oc) => oc.column('uuid').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateDocuments(db: Database, ids: readonly number[], columns: DocumentColumns): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable('document')
    .set({ ...columns, updated_at: now() })
    .where('id', 'in', [...ids])
    .execute();
}

/** Sets `status` where the document's status is one of `from` (all statuses when omitted); returns the ids changed. */
export async function setStatus(
  db: Database,
  ids: readonly number[],
  status: number,
  from?: readonly number[],
): Promise<number[]> {
  if (!ids.length) return [];
  let query = db
    .updateTable('document')
    .set({ status, updated_at: now() })
    .where('id', 'in', [...ids]);
  if (from) query = query.where('status', 'in', [...from]);
  return (await query.returning('id').execute()).map((r) => r.id);
}

/** Adds `delta` to a counter column of one document, never below zero. */
export async function bumpCounter(
  db: Database,
  id: number,
  column: 'view_count' | 'download_count' | 'favorite_count' | 'comment_count',
  delta: number,
): Promise<void> {
  await db
    .updateTable('document')
    .set({ [column]: notBelowZero(db, sql<number>`${sql.ref(column)} + ${delta}`) })
    .where('id', '=', id)
    .execute();
}

/** Recommendation (docs/moredoc.md §12): 0 clears, 1 sets where unset, 2 sets again. */
export async function setRecommend(db: Database, ids: readonly number[], type: 0 | 1 | 2): Promise<void> {
  let query = db
    .updateTable('document')
    .set({ recommend_at: type === 0 ? null : now(), updated_at: now() })
    .where('id', 'in', [...ids]);
  if (type === 1) query = query.where('recommend_at', 'is', null);
  await query.execute();
}

/** Replaces the category links of every listed document. */
export async function setCategoryLinks(
  db: Database,
  documentIds: readonly number[],
  categoryIds: readonly number[],
): Promise<void> {
  if (!documentIds.length) return;
  await db
    .deleteFrom('document_category')
    .where('document_id', 'in', [...documentIds])
    .execute();
  const ts = now();
  const rows = documentIds.flatMap((documentId) =>
    [...new Set(categoryIds)].map((categoryId) => ({
      document_id: documentId,
      category_id: categoryId,
      created_at: ts,
      updated_at: ts,
    })),
  );
  if (rows.length) await db.insertInto('document_category').values(rows).execute();
}

/** Category ids of each document. */
export async function categoryIdsOf(db: Database, documentIds: readonly number[]): Promise<Map<number, number[]>> {
  const links = documentIds.length
    ? await db
        .selectFrom('document_category')
        .select(['document_id', 'category_id'])
        .where('document_id', 'in', [...new Set(documentIds)])
        .orderBy('id')
        .execute()
    : [];
  const map = new Map<number, number[]>();
  for (const link of links) map.set(link.document_id, [...(map.get(link.document_id) ?? []), link.category_id]);
  return map;
}

/**
 * A category link of a document with the category's title, parent and depth (0: top level); null where the category is
 * gone.
 */
export interface DocumentCategory {
  category_id: number;
  title: string | null;
  parent_id: number | null;
  depth: number | null;
}

/**
 * The statement behind categoriesOfDocuments: a row per category link of the documents whose
 * ids `documentIds` gives (a list or a subquery, inside `IN (…)`), with `link_id` (the link's
 * id: the order they were made), the category's title and parent, and how deep it sits (the
 * category table's tree walked as categoriesWithDepth walks it).
 */
function categoryLinks(documentIds: RawBuilder<unknown>) {
  return sql<DocumentCategory & { document_id: number; link_id: number }>`
    WITH RECURSIVE links AS (
      SELECT id, document_id, category_id FROM document_category WHERE document_id IN (${documentIds})),
    chain(start_id, ancestor_id, depth) AS (
      SELECT id, parent_id, 0 FROM category WHERE id IN (SELECT category_id FROM links)
      UNION ALL SELECT chain.start_id, c.parent_id, chain.depth + 1 FROM category c JOIN chain ON c.id = chain.ancestor_id
        WHERE chain.ancestor_id > 0 AND chain.depth < 64),
    depths AS (SELECT start_id, max(depth) AS depth FROM chain GROUP BY start_id)
    SELECT links.id AS link_id, links.document_id, links.category_id, c.title, c.parent_id, depths.depth
    FROM links LEFT JOIN category c ON c.id = links.category_id LEFT JOIN depths ON depths.start_id = links.category_id`;
}

/**
 * The category links of each document, in the order they were made, with each category and
 * how deep it sits, in one statement (categoryLinks): what the lists show root → leaf.
 */
export async function categoriesOfDocuments(
  db: Database,
  documentIds: readonly number[],
): Promise<Map<number, DocumentCategory[]>> {
  const map = new Map<number, DocumentCategory[]>();
  if (!documentIds.length) return map;
  const { rows } = await sql<DocumentCategory & { document_id: number; link_id: number }>`${categoryLinks(
    sql.join([...new Set(documentIds)]),
  )} ORDER BY link_id`.execute(db);
  for (const { document_id: documentId, link_id: _linkId, ...link } of rows) {
    map.set(documentId, [
      ...(map.get(documentId) ?? []),
      { ...link, depth: link.depth === null ? null : Number(link.depth) },
    ]);
  }
  return map;
}

/** Moves documents to the recycle bin (or does nothing for those already there). */
export async function recycleDocuments(db: Database, ids: readonly number[], deletedBy: number): Promise<number[]> {
  if (!ids.length) return [];
  const ts = now();
  const rows = await db
    .updateTable('document')
    .set({ deleted_at: ts, deleted_user_id: deletedBy, updated_at: ts })
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Takes documents out of the recycle bin; returns those that were in it. */
export async function restoreDocuments(db: Database, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .updateTable('document')
    .set({ deleted_at: null, deleted_user_id: 0, updated_at: now() })
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is not', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The ids of every document in the recycle bin. */
export async function recycledIds(db: Database): Promise<number[]> {
  return (await db.selectFrom('document').select('id').where('deleted_at', 'is not', null).execute()).map((r) => r.id);
}

/** Deletes recycled documents for good with their links (text, scores and cache go by cascade); returns what went. */
export async function purgeDocuments(
  db: Database,
  ids: readonly number[],
): Promise<Pick<DocumentRow, 'id' | 'hash' | 'attachment_id' | 'user_id'>[]> {
  if (!ids.length) return [];
  const doomed = await db
    .selectFrom('document')
    .select(['id', 'hash', 'attachment_id', 'user_id'])
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is not', null)
    .execute();
  const doomedIds = doomed.map((d) => d.id);
  if (!doomedIds.length) return [];
  await db.deleteFrom('document_category').where('document_id', 'in', doomedIds).execute();
  await db.deleteFrom('document').where('id', 'in', doomedIds).execute();
  return doomed;
}

// ---------------------------------------------------------------------------------------
// Lists

export interface DocumentFilter {
  categoryIds: number[];
  userId: number;
  languages: string[];
  exts: string[] | null;
  createdFrom: string | null;
  createdTo: string | null;
  isRecommend: boolean | null;
  feeType: 'free' | 'charge' | null;
  /** null: every status */
  statuses: number[] | null;
  wd: string;
  /** false: live documents; true: the recycle bin */
  recycled: boolean;
  order: string;
  page: number;
  size: number;
  withTotal: boolean;
}

/**
 * On PostgreSQL, what narrows the rows whose title, keywords or description one of `patterns` (LIKE patterns) may
 * match to those holding its pairs of characters (index document_text_bigrams, migration 038, whose expression this
 * is): a Chinese word then reads the rows that hold it, not every row. Undefined on SQLite, and where a pattern has no
 * two such characters in a row (one character, a Latin word): every row is read.
 */
function textPairsOfAny(db: Database, patterns: readonly string[]): RawBuilder<SqlBool> | undefined {
  const pairs = patterns.map(likePairs);
  if (engineOf(db) !== 'postgres' || pairs.length === 0 || pairs.some((p) => p.length === 0)) return undefined;
  const held = pairs.map(
    (p) => sql<SqlBool>`document_bigrams(title || E'\\n' || keywords || E'\\n' || description) @> ${p}::text[]`,
  );
  return sql<SqlBool>`(${sql.join(held, sql` OR `)})`;
}

export async function listDocuments(
  db: Database,
  filter: DocumentFilter,
): Promise<{ rows: (DocumentRow & DocumentNames)[]; total?: number }> {
  let query = db.selectFrom('document').where('deleted_at', filter.recycled ? 'is not' : 'is', null);
  if (filter.categoryIds.length) {
    // A category lists what is filed in it or below it, as its doc_count counts (the site's forms
    // file a document under the whole path; one filed under a sub-category alone shows in its parents too).
    const ids = sql.join([...new Set(filter.categoryIds)]);
    query = query.where(
      'id',
      'in',
      sql<number>`(WITH RECURSIVE tree(id) AS (
          SELECT id FROM category WHERE id IN (${ids})
          UNION SELECT c.id FROM category c JOIN tree ON c.parent_id = tree.id)
        SELECT document_id FROM document_category WHERE category_id IN (SELECT id FROM tree))`,
    );
  }
  if (filter.userId > 0) query = query.where('user_id', '=', filter.userId);
  if (filter.languages.length) query = query.where('language', 'in', filter.languages);
  if (filter.exts) query = query.where('ext', 'in', filter.exts.length ? filter.exts : ['']);
  if (filter.createdFrom) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdTo) query = query.where('created_at', '<=', filter.createdTo);
  if (filter.isRecommend !== null) query = query.where('recommend_at', filter.isRecommend ? 'is not' : 'is', null);
  if (filter.feeType === 'free') query = query.where('price', '=', 0);
  if (filter.feeType === 'charge') query = query.where('price', '>', 0);
  if (filter.statuses) query = query.where('status', 'in', filter.statuses.length ? filter.statuses : [-1]);
  if (filter.wd.trim()) {
    const pattern = likePattern(filter.wd);
    query = query.where((eb) =>
      eb.or([like(db, 'title', pattern), like(db, 'keywords', pattern), like(db, 'description', pattern)]),
    );
    const narrowed = textPairsOfAny(db, [pattern]);
    if (narrowed) query = query.where(narrowed);
  }
  const order = parseOrder(filter.order, DOCUMENT_COLUMNS, {
    multiple: false,
    nullable: ['recommend_at', 'deleted_at'],
  });
  const orderBy = [
    ...(order.length ? order : [{ column: sql.ref('id'), direction: 'desc' as const }]),
    ...(order.length ? [{ column: sql.ref('id'), direction: 'desc' as const }] : []),
  ];
  let pageQuery = query.selectAll();
  for (const o of orderBy) pageQuery = pageQuery.orderBy(o.column, o.direction);
  // The names are looked up for the page's rows only: beside the page's own columns, PostgreSQL ran them for every row
  // the OFFSET passes over too (the admin's page 2,000 of 20,000 documents: 40,000 lookups, 0.6 s).
  let rowsQuery = db
    .selectFrom(applyPaging(pageQuery, filter.page, filter.size).as('document'))
    .selectAll('document')
    .select(namesOfDocument);
  for (const o of orderBy) rowsQuery = rowsQuery.orderBy(o.column, o.direction);
  // The page and the count side by side: two connections of a PostgreSQL pool at once.
  const [rows, total] = await Promise.all([rowsQuery.execute(), filter.withTotal ? countOf(query) : undefined]);
  return total === undefined ? { rows } : { rows, total };
}

/** Converted, live documents filed directly under `categoryId`, newest first. */
export async function newestConverted(db: Database, categoryId: number, limit: number): Promise<DocumentRow[]> {
  return db
    .selectFrom('document')
    .selectAll()
    .where('id', 'in', db.selectFrom('document_category').select('document_id').where('category_id', '=', categoryId))
    .where('deleted_at', 'is', null)
    .where('status', '=', DocumentStatus.Converted)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Up to `limit` converted, live documents (other than `excludeId`) whose title or keywords hold one of `words`. */
export async function documentsMatchingWords(
  db: Database,
  words: readonly string[],
  excludeId: number,
  limit: number,
): Promise<DocumentRow[]> {
  if (!words.length) return [];
  let query = db
    .selectFrom('document')
    .selectAll()
    .where('id', '!=', excludeId)
    .where('deleted_at', 'is', null)
    .where('status', '=', DocumentStatus.Converted)
    .where((eb) =>
      eb.or(words.flatMap((w) => [like(db, 'keywords', likePattern(w)), like(db, 'title', likePattern(w))])),
    );
  // Computed at a document's first view (then kept): every row was read for it on PostgreSQL (20,000: 0.19–0.33 s).
  const narrowed = textPairsOfAny(db, words.map(likePattern));
  if (narrowed) query = query.where(narrowed);
  return query.orderBy('view_count', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Up to `limit` converted, live documents filed under one of `categoryIds`, other than the
 * `excludeIds`, most viewed first.
 */
export async function documentsInCategories(
  db: Database,
  categoryIds: readonly number[],
  excludeIds: readonly number[],
  limit: number,
): Promise<DocumentRow[]> {
  if (!categoryIds.length || limit <= 0) return [];
  let query = db
    .selectFrom('document')
    .selectAll()
    .where(
      'id',
      'in',
      db
        .selectFrom('document_category')
        .select('document_id')
        .where('category_id', 'in', [...categoryIds]),
    )
    .where('deleted_at', 'is', null)
    .where('status', '=', DocumentStatus.Converted);
  if (excludeIds.length) query = query.where('id', 'not in', [...excludeIds]);
  return query.orderBy('view_count', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The documents a member has read (a reading position) or favourited, the ids. */
export async function documentsReadOrFavourited(db: Database, userId: number): Promise<number[]> {
  const read = await db.selectFrom('reading_position').select('document_id').where('user_id', '=', userId).execute();
  const favourites = await db
    .selectFrom('favorite')
    .select('document_id')
    .where('user_id', '=', userId)
    .where('type', '=', 0)
    .execute();
  return [...new Set([...read, ...favourites].map((r) => r.document_id))];
}

/**
 * 猜你喜欢: up to `limit` live, converted documents filed under `categoryIds` that the member
 * has neither read, favourited nor uploaded, the hottest first (their 热门文档 score), then
 * the most viewed.
 */
export async function documentsForMember(
  db: Database,
  userId: number,
  categoryIds: readonly number[],
  limit: number,
): Promise<DocumentRow[]> {
  if (!categoryIds.length) return [];
  return db
    .selectFrom('document')
    .leftJoin('document_hot', 'document_hot.document_id', 'document.id')
    .selectAll('document')
    .where(
      'document.id',
      'in',
      db
        .selectFrom('document_category')
        .select('document_id')
        .where('category_id', 'in', [...categoryIds]),
    )
    .where('document.deleted_at', 'is', null)
    .where('document.status', '=', DocumentStatus.Converted)
    .where('document.user_id', '!=', userId)
    .where(
      'document.id',
      'not in',
      db.selectFrom('reading_position').select('document_id').where('user_id', '=', userId),
    )
    .where(
      'document.id',
      'not in',
      db.selectFrom('favorite').select('document_id').where('user_id', '=', userId).where('type', '=', 0),
    )
    .orderBy(sql`coalesce(document_hot.score, 0)`, 'desc')
    .orderBy('document.view_count', 'desc')
    .orderBy('document.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The documents visitors can list: converted, outside the recycle bin. What every count they
 * see counts (`user.doc_count`, the home's total; `category.doc_count` in the category module's
 * recount, with the same constant): docs/api.md, "Counts visitors see".
 */
export const listedDocuments = (db: Database) =>
  db.selectFrom('document').where('deleted_at', 'is', null).where('status', '=', LISTED_DOCUMENT_STATUS);

/** How many documents visitors can list (the home page's 文档 figure and the dashboard's). */
export const countListedDocuments = (db: Database) => countOf(listedDocuments(db));

/** What the sitemap lists: live documents strangers may see. */
export async function publicDocumentLinks(db: Database): Promise<{ uuid: string; updated_at: string }[]> {
  return db
    .selectFrom('document')
    .select(['uuid', 'updated_at'])
    .where('deleted_at', 'is', null)
    .where('status', 'not in', [...HIDDEN_STATUSES])
    .orderBy('id')
    .execute();
}

/** Documents that failed with one of these reasons (the missing-converter messages). */
export async function failedWith(db: Database, reasons: readonly string[]): Promise<DocumentRow[]> {
  if (!reasons.length) return [];
  return db
    .selectFrom('document')
    .selectAll()
    .where('status', '=', DocumentStatus.Failed)
    .where('convert_error', 'in', [...reasons])
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * A document in review converts meanwhile, so that the reviewer reads it in the reader: one
 * without pages and without a failed attempt still needs its conversion.
 */
export function awaitsReviewConversion(doc: Pick<DocumentRow, 'status' | 'pages' | 'convert_error'>): boolean {
  return doc.status === DocumentStatus.PendingReview && doc.pages <= 0 && doc.convert_error === '';
}

/**
 * Hashes of the documents waiting for the converter (status 0, 1 or 5, or in review without
 * pages), each with the uploader of one of them.
 */
export async function waitingHashes(db: Database): Promise<{ hash: string; status: number; userId: number }[]> {
  return db
    .selectFrom('document')
    .select((eb) => ['hash', 'status', eb.fn.min('user_id').as('userId')])
    .groupBy(['hash', 'status'])
    .where((eb) =>
      eb.or([
        eb('status', 'in', [...WAITING_STATUSES]),
        eb.and([eb('status', '=', DocumentStatus.PendingReview), eb('pages', '<=', 0), eb('convert_error', '=', '')]),
      ]),
    )
    .where('hash', '!=', '')
    .execute();
}

/** Each user's documents visitors can list: what `user.doc_count` holds, and the author card shows. */
export async function listedDocumentCounts(db: Database, userIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>([...new Set(userIds)].map((id) => [id, 0]));
  if (!userIds.length) return counts;
  const rows = await listedDocuments(db)
    .select((eb) => ['user_id', eb.fn.countAll<number>().as('n')])
    .where('user_id', 'in', [...new Set(userIds)])
    .groupBy('user_id')
    .execute();
  for (const row of rows) counts.set(row.user_id, Number(row.n));
  return counts;
}

/**
 * How many documents the user created since `since` (the daily upload reward's limit), copies of a file of
 * theirs left out (`own_copy`, decision 115).
 */
export async function documentsCreatedSince(db: Database, userId: number, since: string): Promise<number> {
  return countOf(
    db.selectFrom('document').where('user_id', '=', userId).where('created_at', '>=', since).where('own_copy', '=', 0),
  );
}

// ---------------------------------------------------------------------------------------
// Text

/**
 * A document's extracted text: `pages` page texts separated by form feeds, or (`pages` 0) one text not split into
 * pages.
 */
export interface DocumentText {
  content: string;
  pages: number;
}

export async function textOf(db: Database, documentId: number): Promise<DocumentText> {
  const row = await db
    .selectFrom('document_content')
    .select(['content', 'pages'])
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  return row ?? { content: '', pages: 0 };
}

export async function setText(
  db: Database,
  documentIds: readonly number[],
  { content, pages }: DocumentText,
): Promise<void> {
  const ts = now();
  for (const documentId of documentIds) {
    await db
      .insertInto('document_content')
      .values({ document_id: documentId, content, pages, created_at: ts, updated_at: ts })
      .onConflict((oc) => oc.column('document_id').doUpdateSet({ content, pages, updated_at: ts }))
      .execute();
  }
}

// ---------------------------------------------------------------------------------------
// Where members last read

export async function readingPosition(db: Database, userId: number, documentId: number) {
  return db
    .selectFrom('reading_position')
    .select(['page', 'updated_at'])
    .where('user_id', '=', userId)
    .where('document_id', '=', documentId)
    .executeTakeFirst();
}

/** Stamped with the database's now: the history's order is the same whichever machine wrote each line. */
export async function setReadingPosition(
  db: Database,
  userId: number,
  documentId: number,
  page: number,
): Promise<void> {
  const ts = (await databaseNow(db)).toISOString();
  await db
    .insertInto('reading_position')
    .values({ user_id: userId, document_id: documentId, page, updated_at: ts })
    .onConflict((oc) => oc.columns(['user_id', 'document_id']).doUpdateSet({ page, updated_at: ts }))
    .execute();
}

/**
 * A member's reading history, newest first: the documents they have a reading position in and
 * may still see (public ones, and their own).
 */
export async function readingHistory(db: Database, userId: number, page: number, size: number) {
  const query = db
    .selectFrom('reading_position')
    .innerJoin('document', 'document.id', 'reading_position.document_id')
    .where('reading_position.user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb.and([eb('document.deleted_at', 'is', null), eb('document.status', 'not in', [...HIDDEN_STATUSES])]),
        eb('document.user_id', '=', userId),
      ]),
    );
  const rows = await applyPaging(
    query
      .select([
        'reading_position.document_id',
        'reading_position.page',
        'reading_position.updated_at',
        'document.title',
        'document.ext',
        'document.pages',
      ])
      .orderBy('reading_position.updated_at', 'desc')
      .orderBy('reading_position.document_id', 'desc'),
    page,
    size,
  ).execute();
  return { rows, total: await countOf(query) };
}

/** Forgets where the member read these documents (all of them when `documentIds` is null); how many went. */
export async function deleteReadingPositions(
  db: Database,
  userId: number,
  documentIds: readonly number[] | null,
): Promise<number> {
  let query = db.deleteFrom('reading_position').where('user_id', '=', userId);
  if (documentIds) query = query.where('document_id', 'in', [...documentIds]);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------
// Ratings

export async function findScore(db: Database, documentId: number, userId: number) {
  return db
    .selectFrom('document_score')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Records a rating and refreshes the document's average; false when the user had rated it already. */
export async function addScore(db: Database, documentId: number, userId: number, score: number): Promise<boolean> {
  const ts = now();
  const inserted = await db
    .insertInto('document_score')
    .values({ document_id: documentId, user_id: userId, score, created_at: ts, updated_at: ts })
    .onConflict((oc) => oc.columns(['document_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  // Averaged, then written: ratings of one document at once take turns (its row is locked).
  await lockRows(db, 'document', [documentId]);
  const { average, n } = await db
    .selectFrom('document_score')
    .select((eb) => [eb.fn.avg<number>('score').as('average'), eb.fn.countAll<number>().as('n')])
    .where('document_id', '=', documentId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('document')
    .set({ score: Math.round(Number(average)), score_count: Number(n), updated_at: ts })
    .where('id', '=', documentId)
    .execute();
  return true;
}

// ---------------------------------------------------------------------------------------
// Related documents cache

export async function cachedRelated(db: Database, documentId: number): Promise<number[] | null> {
  const row = await db
    .selectFrom('document_related')
    .select(['related_ids', 'expires_at'])
    .where('document_id', '=', documentId)
    .where('expires_at', '>', now())
    .executeTakeFirst();
  return row ? (JSON.parse(row.related_ids) as number[]) : null;
}

export async function cacheRelated(
  db: Database,
  documentId: number,
  ids: readonly number[],
  expiresAt: string,
): Promise<void> {
  const relatedIds = JSON.stringify(ids);
  await db
    .insertInto('document_related')
    .values({ document_id: documentId, related_ids: relatedIds, expires_at: expiresAt })
    .onConflict((oc) => oc.column('document_id').doUpdateSet({ related_ids: relatedIds, expires_at: expiresAt }))
    .execute();
}

// ---------------------------------------------------------------------------------------
// Purchases (the `download` table; its module comes with the downloads of issue 13)

/** Has the user paid for any of these documents? */
export async function hasPaidDownload(db: Database, userId: number, documentIds: readonly number[]): Promise<boolean> {
  if (!documentIds.length) return false;
  const row = await db
    .selectFrom('download')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_pay', '=', 1)
    .where('document_id', 'in', [...documentIds])
    .executeTakeFirst();
  return row !== undefined;
}

/** Ids of the documents strangers may find (isSearchable), oldest first (rebuilding the search index). */
export async function searchableDocumentIds(db: Database, limit?: number): Promise<number[]> {
  let query = db
    .selectFrom('document')
    .select('id')
    .where('deleted_at', 'is', null)
    .where('status', 'not in', [...UNSEARCHABLE_STATUSES])
    .orderBy('id');
  if (limit !== undefined) query = query.limit(limit);
  return (await query.execute()).map((r) => r.id);
}

/** Ids of the documents with this status (recycled ones included). */
export async function idsWithStatus(db: Database, status: number): Promise<number[]> {
  return (await db.selectFrom('document').select('id').where('status', '=', status).execute()).map((r) => r.id);
}

/** Every file whose documents have pages, once each (the positions backfill walks them). */
export async function convertedHashes(db: Database): Promise<string[]> {
  const rows = await db
    .selectFrom('document')
    .select('hash')
    .distinct()
    .where('pages', '>', 0)
    .where('hash', '!=', '')
    .orderBy('hash')
    .execute();
  return rows.map((row) => row.hash);
}
