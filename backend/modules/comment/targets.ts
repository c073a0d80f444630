import type { Database } from '../../db';
import { TargetType } from '../../../shared/constants';
import type { BackendContext } from '../../platform/context';
import { articleTitles, publishedArticles, refreshArticleIndex, setArticleCommentCount } from '../article/service';
import { bumpCounter, documentsByIds, isPublic, refreshSearchIndex, seesDocument } from '../document/service';

// What comments can be about, each through its own module's service: the module answers
// whether readers may comment on an item, names items in lists, keeps their counter, and
// brings its search index in line with the counter after the change committed.

export interface TargetInfo {
  title: string;
  uuid: string;
  userId: number;
}

export interface CommentTarget {
  /** What the missing or unreadable target is called in a 404. */
  missing: string;
  /** The table of the items: their rows are locked while their counter is recounted. */
  table: 'document' | 'article';
  /** Items readers may see and comment on, by id. */
  open(db: Database, ids: readonly number[]): Promise<Map<number, TargetInfo>>;
  /** May `userId` (null: a visitor) read the comments on item `id`: may they see the item (a published article)? */
  seenBy(db: Database, id: number, userId: number | null): Promise<boolean>;
  /** Title and uuid/identifier of items in any state, by id. */
  titles(db: Database, ids: readonly number[]): Promise<Map<number, { title: string; uuid: string }>>;
  setCommentCount(db: Database, id: number, count: number): Promise<void>;
  /** After the transaction: what derives from the counter (the search index sorts by comments). */
  afterCommit(app: BackendContext, ids: readonly number[]): Promise<void>;
}

const articleTarget: CommentTarget = {
  missing: '文章不存在',
  table: 'article',
  async open(db, ids) {
    const rows = await publishedArticles(db, ids);
    return new Map([...rows].map(([id, a]) => [id, { title: a.title, uuid: a.identifier, userId: a.user_id }]));
  },
  async seenBy(db, id) {
    return (await publishedArticles(db, [id])).has(id);
  },
  async titles(db, ids) {
    const rows = await articleTitles(db, ids);
    return new Map([...rows].map(([id, a]) => [id, { title: a.title, uuid: a.identifier }]));
  },
  setCommentCount: setArticleCommentCount,
  afterCommit: refreshArticleIndex,
};

const documentTarget: CommentTarget = {
  missing: '文档不存在',
  table: 'document',
  async open(db, ids) {
    const rows = (await documentsByIds(db, ids)).filter(isPublic);
    return new Map(rows.map((d) => [d.id, { title: d.title, uuid: d.uuid, userId: d.user_id }]));
  },
  async seenBy(db, id, userId) {
    const [row] = await documentsByIds(db, [id]);
    // Its owner and the document admins see a hidden document whole (decision 096), its comments too.
    return row !== undefined && (await seesDocument(db, userId, row));
  },
  async titles(db, ids) {
    return new Map((await documentsByIds(db, ids)).map((d) => [d.id, { title: d.title, uuid: d.uuid }]));
  },
  async setCommentCount(db, id, count) {
    const [row] = await documentsByIds(db, [id]);
    if (row && row.comment_count !== count) await bumpCounter(db, id, 'comment_count', count - row.comment_count);
  },
  afterCommit: refreshSearchIndex,
};

const TARGETS: Readonly<Record<number, CommentTarget>> = {
  [TargetType.Document]: documentTarget,
  [TargetType.Article]: articleTarget,
};

/** The target kind of `type`, or undefined when comments on it are not served. */
export const commentTarget = (type: number): CommentTarget | undefined => TARGETS[type];
