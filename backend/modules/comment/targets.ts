import type { Database } from '../../db';
import { TargetType } from '../../../shared/constants';
import { articleTitles, publishedArticles, setArticleCommentCount } from '../article/service';

// What comments can be about, each through its own module's service: the module answers
// whether readers may comment on an item, names items in lists, and keeps their counter.
// Documents join when the document module offers the same three functions.

export interface TargetInfo { title: string; uuid: string; userId: number }

export interface CommentTarget {
  /** What the missing or unreadable target is called in a 404. */
  missing: string;
  /** Items readers may see and comment on, by id. */
  open(db: Database, ids: readonly number[]): Promise<Map<number, TargetInfo>>;
  /** Title and uuid/identifier of items in any state, by id. */
  titles(db: Database, ids: readonly number[]): Promise<Map<number, { title: string; uuid: string }>>;
  setCommentCount(db: Database, id: number, count: number): Promise<void>;
}

const articleTarget: CommentTarget = {
  missing: '文章不存在',
  async open(db, ids) {
    const rows = await publishedArticles(db, ids);
    return new Map([...rows].map(([id, a]) => [id, { title: a.title, uuid: a.identifier, userId: a.user_id }]));
  },
  async titles(db, ids) {
    const rows = await articleTitles(db, ids);
    return new Map([...rows].map(([id, a]) => [id, { title: a.title, uuid: a.identifier }]));
  },
  setCommentCount: setArticleCommentCount,
};

const TARGETS: Readonly<Record<number, CommentTarget>> = { [TargetType.Article]: articleTarget };

/** The target kind of `type`, or undefined when comments on it are not served. */
export const commentTarget = (type: number): CommentTarget | undefined => TARGETS[type];
