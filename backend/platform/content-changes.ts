import type { FastifyBaseLogger } from 'fastify';

// Changes of what the public site shows, told to the modules that follow them without the
// module that made the change importing them: the sitemap module reads articles through the
// article module, so the article module cannot call it; it tells this hub instead, and the
// sitemap module listens. Told after the change committed, in the process that made it (a
// listener that must reach other processes queues a job).

/** Content other modules list: articles (documents and categories are followed otherwise). */
export type PublicContent = 'article';

export interface ContentChange {
  content: PublicContent;
  /** The rows whose public state may have changed (published, edited, hidden, removed). */
  ids: readonly number[];
}

export type ContentListener = (change: ContentChange) => Promise<void> | void;

export class ContentChanges {
  readonly #listeners = new Set<ContentListener>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Calls `listener` after every change told from now on; the answer stops it. */
  subscribe(listener: ContentListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; one that fails is logged and never fails the change (its data is derived). */
  async tell(change: ContentChange): Promise<void> {
    if (!change.ids.length) return;
    for (const listener of this.#listeners) {
      try {
        await listener(change);
      } catch (error) {
        this.log.error({ err: error, content: change.content, ids: change.ids.slice(0, 20) }, 'a listener of content changes failed');
      }
    }
  }
}
