import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';

// Changes of what the public site shows, told to the modules that follow them without the
// module that made the change importing them: the sitemap module reads articles through the
// article module, so the article module cannot call it; it tells this hub instead, and the
// sitemap module listens. Told after the change committed, in the process that made it (a
// listener that must reach other processes queues a job), or inside its transaction
// (`tellInTransaction`), for a listener whose work must commit or roll back with the change.
// The gateway, when it runs this backend in its process, listens too: its kept pages follow.

/** Content the public pages show: articles, categories, documents, comments and the settings. */
export type PublicContent = 'article' | 'category' | 'document' | 'comment' | 'settings';

export interface ContentChange {
  content: PublicContent;
  /** The rows whose public state may have changed (published, edited, hidden, removed); may be empty: rows created by a batch. */
  ids: readonly number[];
  /** The rows are deleted for good: what hangs on them (comments) goes in the same transaction. */
  purged?: boolean;
}

export type ContentListener = (change: ContentChange) => Promise<void> | void;
/** Runs inside the transaction of the change (`trx`): what it writes commits with the change. */
export type TransactionListener = (change: ContentChange, trx: Database) => Promise<void>;

export class ContentChanges {
  readonly #listeners = new Set<ContentListener>();
  readonly #inTransaction = new Set<TransactionListener>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Calls `listener` after every change told from now on; the answer stops it. */
  subscribe(listener: ContentListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Calls `listener` inside the transaction of every change told with `tellInTransaction`; the answer stops it. */
  subscribeInTransaction(listener: TransactionListener): () => void {
    this.#inTransaction.add(listener);
    return () => this.#inTransaction.delete(listener);
  }

  /**
   * Tells the transaction's listeners, in `trx` (ids may be empty: rows created by a batch).
   * A listener that fails fails the change: a half-committed change is worse than none.
   */
  async tellInTransaction(change: ContentChange, trx: Database): Promise<void> {
    for (const listener of this.#inTransaction) await listener(change, trx);
  }

  /** Tells every listener; one that fails is logged and never fails the change (its data is derived). */
  async tell(change: ContentChange): Promise<void> {
    for (const listener of this.#listeners) {
      try {
        await listener(change);
      } catch (error) {
        this.log.error(
          { err: error, content: change.content, ids: change.ids.slice(0, 20) },
          'a listener of content changes failed',
        );
      }
    }
  }
}
