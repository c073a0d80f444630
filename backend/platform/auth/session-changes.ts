import type { Database } from '../../db';
import { CHANNELS, notify, type Notifications } from '../../db/notifications';

// Sessions that ended or whose rights changed (a logout, a password changed or reset, a user's
// groups, a group's permissions), told to every process that shares the database, so that what
// a process keeps per session (the gateway's page guard, gateway/plugins/page-guard.ts) is
// dropped on all of them when the change commits, not only on the one that made it. The
// backend itself keeps nothing per session: it reads the tables at every call. Without
// PostgreSQL there is one process, and a change is told to it alone.

/** Every session, or the sessions named by their keys (the subscriber's own names: hashes of tokens, never tokens). */
export type ChangedSessions = 'all' | readonly string[];

export type SessionListener = (changed: ChangedSessions) => void;

/** The payload of a NOTIFY that names every session. */
const ALL = '*';

export class SessionChanges {
  readonly #listeners = new Set<SessionListener>();

  constructor(
    private readonly db: Database,
    private readonly notifications?: Notifications,
  ) {}

  /** Calls `listener` for every change told from now on, by any process; the answer stops it. */
  subscribe(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Listens to the other processes. A NOTIFY is a hint that may be lost while the connection is
   * down: after a reconnection every session counts as changed.
   */
  async listen(): Promise<void> {
    await this.notifications?.subscribe(CHANNELS.sessions, {
      onNotify: (payload) => this.#emit(payload === ALL ? 'all' : payload.split(' ').filter(Boolean)),
      onReconnect: () => this.#emit('all'),
    });
  }

  /** Tells every process (this one included); rejects when the database cannot be reached. */
  async tell(changed: ChangedSessions): Promise<void> {
    if (changed !== 'all' && changed.length === 0) return;
    if (!this.notifications) {
      this.#emit(changed);
      return;
    }
    await notify(this.db, CHANNELS.sessions, changed === 'all' ? ALL : changed.join(' '));
  }

  #emit(changed: ChangedSessions): void {
    for (const listener of this.#listeners) listener(changed);
  }
}
