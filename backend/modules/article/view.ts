import crypto from 'node:crypto';
import type { Database } from '../../db';
import {
  ARTICLE_LIMITS,
  articleIdentifierProblems,
  cleanName,
  nameProblems,
  textProblems,
} from '../../../shared/validation';
import { badRequest } from '../../wire/errors';
import type { Decoded } from '../../wire/message';
import { assertValid, checkText, positiveIds } from '../../wire/request';
import { richTextToText, sanitizeRichText } from '../../platform/rich-text';
import { categoriesByIds } from '../category/service';
import { publicProfilesOf } from '../user/service';
import type { RpcContext } from '../../platform/rpc';
import type { Article } from '../../../shared/messages/article';
import { articleIdentifierOf } from '../../../shared/routes';
import { FOOTER_LINKS } from '../../../shared/site-footer';
import { categoryIdsOf, type ArticleEdit, type ArticleListRow } from './store';

// What the article RPCs share: checking what an author sends, and dressing rows for the wire
// (category ids and categories, the author).

const DESCRIPTION_FROM_TEXT = 200;
const MAX_KEYWORDS = 10;
const ARTICLE_CATEGORY = 1;

/** Words of two or more characters from the title, as MOREDOC fills empty keywords (ICU word breaks). */
export function keywordsFromTitle(title: string): string {
  const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
  const words = [...segmenter.segment(title)]
    .filter((s) => s.isWordLike && [...s.segment].length >= 2)
    .map((s) => s.segment);
  return [...new Set(words)].slice(0, MAX_KEYWORDS).join(', ');
}

/** 16 hex digits, with a letter among them: an all-digit key would read as an id in `/article/detail/{id}`. */
export function randomIdentifier(): string {
  for (;;) {
    const identifier = crypto.randomBytes(8).toString('hex');
    if (/[a-f]/.test(identifier)) return identifier;
  }
}

/** The identifier an admin chose: allowed characters, not all digits. */
export function checkIdentifier(identifier: string): string {
  const trimmed = identifier.trim();
  assertValid(articleIdentifierProblems(trimmed));
  return trimmed;
}

/** Article categories among `ids` (400 when one is missing or a document category). */
export async function checkArticleCategories(db: Database, ids: readonly number[]): Promise<number[]> {
  const wanted = positiveIds(ids);
  const found = await categoriesByIds(db, wanted);
  if (found.length !== wanted.length || found.some((c) => c.type !== ARTICLE_CATEGORY))
    throw badRequest('文章分类不存在');
  return wanted;
}

/** The columns an author sets (CreateArticle, UpdateArticle), checked, the body sanitised. */
export async function articleInput(
  db: Database,
  req: Decoded<typeof Article>,
): Promise<ArticleEdit & { categoryIds: number[] }> {
  const title = cleanName(req.title);
  assertValid([
    ...nameProblems(req.title, '文章标题', ARTICLE_LIMITS.title),
    ...textProblems(req.keywords, '文章关键字', ARTICLE_LIMITS.keywords),
    ...textProblems(req.description, '文章摘要', ARTICLE_LIMITS.description),
    ...textProblems(req.content, '文章内容', ARTICLE_LIMITS.content, true),
  ]);
  checkText(req.keywords, '文章关键字');
  checkText(req.description, '文章摘要', { multiline: true });
  const content = sanitizeRichText(req.content);
  const text = richTextToText(content);
  if (!text && !/<img\s/i.test(content)) throw badRequest('文章内容不能为空');
  return {
    identifier: '',
    title,
    keywords: req.keywords.trim() || keywordsFromTitle(title),
    description: req.description.trim() || [...text.replace(/\s+/g, ' ')].slice(0, DESCRIPTION_FROM_TEXT).join(''),
    content,
    categoryIds: await checkArticleCategories(db, req.category_id),
  };
}

/** Categories of one article from root to leaf: a category comes after those of its ancestors that are linked too. */
function rootFirst<C extends { id: number; parent_id: number }>(categories: C[]): C[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const depth = (c: C): number => {
    let n = 0;
    for (let p = byId.get(c.parent_id); p && n < categories.length; p = byId.get(p.parent_id)) n += 1;
    return n;
  };
  return [...categories].sort((a, b) => depth(a) - depth(b) || a.id - b.id);
}

/**
 * Rows as the wire shows them: `category_id`, `category` ({id, title, parent_id}, root first)
 * and `user` — the public profile (`fullUser`) or {id, username, avatar} as lists give it.
 */
export async function presentArticles<R extends Pick<ArticleListRow, 'id' | 'user_id'>>(
  db: Database,
  rows: R[],
  fullUser = false,
) {
  const links = await categoryIdsOf(
    db,
    rows.map((r) => r.id),
  );
  const categories = new Map((await categoriesByIds(db, [...links.values()].flat())).map((c) => [c.id, c]));
  const users = await publicProfilesOf(
    db,
    rows.map((r) => r.user_id),
  );
  return rows.map((row) => {
    const categoryIds = links.get(row.id) ?? [];
    const user = users.get(row.user_id);
    return {
      ...row,
      category_id: categoryIds,
      category: rootFirst(
        categoryIds.flatMap((id) => {
          const c = categories.get(id);
          return c ? [{ id: c.id, title: c.title, parent_id: c.parent_id }] : [];
        }),
      ),
      user: user && (fullUser ? user : { id: user.id, username: user.username, avatar: user.avatar }),
    };
  });
}

/**
 * Whose text `ctx`'s caller may read: every article's, but a visitor of a site open to members only
 * the footer's pages' alone (关于我们, 文库协议, 隐私政策…), which registering agrees to (decision 097).
 */
export async function articleTextReadable(ctx: RpcContext): Promise<(identifier: string | undefined) => boolean> {
  const cfg = await ctx.app.settings.snapshot();
  if (!cfg.withholdsText(ctx.user?.id ?? null)) return () => true;
  const open = new Set(FOOTER_LINKS.map((link) => articleIdentifierOf(cfg.str('footer', link.key))));
  return (identifier) => !!identifier && open.has(identifier);
}

/** Articles as `ctx`'s caller may read them: titles and metadata, without the summary or the body, where their text is withheld. */
export async function readableArticles<A extends { identifier?: string; description?: string; content?: string }>(
  ctx: RpcContext,
  articles: A[],
): Promise<A[]> {
  const readable = await articleTextReadable(ctx);
  return articles.map((a) =>
    readable(a.identifier)
      ? a
      : {
          ...a,
          ...(a.description === undefined ? {} : { description: '' }),
          ...(a.content === undefined ? {} : { content: '' }),
        },
  );
}
