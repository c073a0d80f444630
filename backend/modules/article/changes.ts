import { settingsChanged } from '../../platform/config-store';
import type { BackendContext } from '../../platform/context';
import { refreshArticleIndex } from './indexing';

/**
 * After a committed write that may change what readers see of these articles (created,
 * edited, reviewed, filed, deleted, restored, purged): the settings follow (their footer links
 * name only published pages), so does the search index, and the modules that list articles
 * hear of it (the sitemaps: they import this module, so it tells them through
 * `contentChanges` rather than calling them).
 */
export async function articlesChanged(app: BackendContext, ids: readonly number[]): Promise<void> {
  await settingsChanged(app.db);
  await app.settings.reload();
  await refreshArticleIndex(app, ids);
  await app.contentChanges.tell({ content: 'article', ids });
}
