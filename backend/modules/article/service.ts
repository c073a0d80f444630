import type { Database } from '../../db';
import { groupAllows } from '../group/service';
import { PunishmentType, barReason } from '../punishment/service';

// What other modules may ask of the article module: whether a member may write articles (the
// article image upload asks too), an article as the target of comments, reports and
// favourites, its counters (and the search index after them), and the counts and links of
// the dashboard and sitemap, and which footer pages are published (the settings).

export {
  articleTitles,
  bumpFavoriteCount as bumpArticleFavorites,
  countPublishedArticles,
  publishedArticleLinks,
  publishedArticleStamp,
  publishedArticles,
  publishedFavoriteCount,
  publishedIdentifiers,
  setCommentCount as setArticleCommentCount,
  type ArticleTarget,
} from './store';
export { refreshArticleIndex } from './indexing';

/** Why the member may not publish articles (a punishment, or no group enables it), or null when they may. */
export async function publishRefusal(db: Database, userId: number): Promise<string | null> {
  const reason = await barReason(db, userId, PunishmentType.NoArticle);
  if (reason !== null) return reason ? `您已被禁止发布文章，原因：${reason}` : '您已被禁止发布文章';
  return (await groupAllows(db, userId, 'enable_article')) ? null : '您没有权限发布文章';
}
