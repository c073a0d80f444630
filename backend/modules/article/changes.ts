import type { BackendContext } from '../../platform/context';
import { refreshArticleIndex } from './indexing';

/**
 * After a committed write that may change what readers see of these articles (created,
 * edited, reviewed, filed, deleted, restored, purged): the search index follows, and the
 * modules that list articles hear of it (the sitemaps: they import this module, so it tells
 * them through `contentChanges` rather than calling them).
 */
export async function articlesChanged(app: BackendContext, ids: readonly number[]): Promise<void> {
  await refreshArticleIndex(app, ids);
  await app.contentChanges.tell({ content: 'article', ids });
}
