import { DEFAULT_CREDIT_NAME } from '../../shared/constants';
import type { Database } from '../db';
import { CHANNELS, notify, type Notifications } from '../db/notifications';

// Read access to the `config` table, typed the way MOREDOC converts values by input_type
// (docs/moredoc.md §10). Cached in memory. Every write to the table bumps the `config` row of
// `change_counter` (`settingsChanged`); a process compares that number with the one its cache
// was read at, at most once a second and behind the answer, so that a change made through any
// process sharing the database is seen by all of them within `SETTINGS_CHECK_MS` (plus one
// request, which starts the comparison; on PostgreSQL a NOTIFY starts it at once: `listen`). The
// process that made the change reads them again at once (`reload`), before it answers.

interface Entry {
  value: string;
  inputType: string;
}

const TRUE_VALUES = ['1', 't', 'T', 'TRUE', 'true', 'True'];

export class ConfigSnapshot {
  constructor(private readonly entries: Map<string, Entry>) {}

  raw(category: string, name: string): string {
    return this.entries.get(`${category}.${name}`)?.value ?? '';
  }
  str(category: string, name: string): string {
    return this.raw(category, name);
  }
  bool(category: string, name: string): boolean {
    return TRUE_VALUES.includes(this.raw(category, name).trim());
  }
  int(category: string, name: string): number {
    const value = this.raw(category, name).trim();
    return /^[+-]?\d+$/.test(value) ? Number.parseInt(value, 10) : 0;
  }
  list(category: string, name: string): string[] {
    // A Chinese admin's full-width comma separates as well as the ASCII one the form asks for.
    return this.raw(category, name)
      .split(/[,，]/u)
      .map((s) => s.trim())
      .filter(Boolean);
  }
  /**
   * `system.domain` without its trailing slash: the site's address in what leaves the site
   * (sitemaps, password-reset mails, sign-in and payment callbacks); '' while it is not set.
   */
  siteOrigin(): string {
    return this.raw('system', 'domain').trim().replace(/\/+$/, '');
  }
  /**
   * Is the site open to members only (是否登录才能访问)? Then a visitor gets the titles and metadata
   * of its documents and articles, none of their text (docs/decisions/097).
   */
  membersOnly(): boolean {
    return this.bool('security', 'login_required');
  }
  /** Is the text of documents and articles (descriptions, bodies, snippets) withheld from `userId` (null: a visitor)? */
  withholdsText(userId: number | null): boolean {
    return userId === null && this.membersOnly();
  }
  /** What the site calls its credits (`score.credit_name`), DEFAULT_CREDIT_NAME while it is not set. */
  creditName(): string {
    return this.raw('score', 'credit_name').trim() || DEFAULT_CREDIT_NAME;
  }
}

/** The settings of these `config` rows. */
export function configSnapshotOf(
  rows: readonly { category: string; name: string; value: string; input_type: string }[],
): ConfigSnapshot {
  return new ConfigSnapshot(
    new Map(rows.map((row) => [`${row.category}.${row.name}`, { value: row.value, inputType: row.input_type }])),
  );
}

/** How stale the settings of a process may be after another process changed them. */
export const SETTINGS_CHECK_MS = 1000;

const COUNTER = 'config';

/** Tells every process that the `config` table changed: call it after (or in the transaction of) the write. */
export async function settingsChanged(db: Database): Promise<void> {
  await db
    .updateTable('change_counter')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', COUNTER)
    .execute();
  await notify(db, CHANNELS.settings, '');
}

async function settingsVersion(db: Database): Promise<number> {
  const row = await db.selectFrom('change_counter').select('value').where('name', '=', COUNTER).executeTakeFirst();
  return row?.value ?? 0;
}

export class ConfigStore {
  private cached: { snapshot: ConfigSnapshot; version: number } | null = null;
  /** When the cached version was last compared with the database's (Date.now()). */
  private checkedAt = 0;
  /** The first read under way: concurrent requests wait for the one query. */
  private loading: Promise<ConfigSnapshot> | null = null;
  /** The comparison under way, behind the cached snapshot. */
  private refreshing: Promise<unknown> | null = null;
  /** Bumped by reload(): a read begun before it must not store what it read. */
  private generation = 0;
  /** What is made from each snapshot read, before it is stored (`prepare`). */
  private preparer: ((snapshot: ConfigSnapshot) => Promise<unknown>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly checkEveryMs = SETTINGS_CHECK_MS,
  ) {}

  /**
   * The settings. Once read, they are answered from memory at once, never after a query: a
   * caller may hold SQLite's one connection in a transaction, which a query here would wait
   * for. When the last comparison is older than `checkEveryMs`, one starts behind the answer,
   * and the calls after it get what it found.
   */
  async snapshot(): Promise<ConfigSnapshot> {
    if (this.cached) {
      if (Date.now() - this.checkedAt >= this.checkEveryMs && !this.refreshing) {
        this.refreshing = this.check()
          .catch(() => undefined)
          .finally(() => {
            this.refreshing = null;
          });
      }
      return this.cached.snapshot;
    }
    this.loading ??= this.check().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /**
   * `fn` makes what is read with the settings (the public settings' languages and footer links)
   * from each snapshot read, the first and each one a change brings, before the snapshot is
   * stored. Without it, an instance that took another process's change (a NOTIFY) made them at
   * its next settings call: PostgreSQL gone away before that call, it answered the settings 503
   * and its pages came without them, where an instance that had served them answered from memory.
   * A failure of `fn` is left to the call that needs what it makes.
   */
  prepare(fn: (snapshot: ConfigSnapshot) => Promise<unknown>): void {
    this.preparer = fn;
  }

  /**
   * The settings changed in this process: read them again now, outside any transaction, and
   * answer the snapshots after it from what it read. The cached settings are kept meanwhile:
   * emptying the cache would make the next snapshot a query, and a caller that holds SQLite's
   * one connection in a transaction (emptying the recycle bin reads the retention setting)
   * would wait for itself for good. A read that fails leaves the old settings, compared again
   * by the next snapshot.
   */
  async reload(): Promise<void> {
    this.generation += 1;
    this.checkedAt = 0;
    await this.check(true).catch(() => undefined);
  }

  /**
   * On PostgreSQL, the other processes' changes are compared as soon as they are committed (a
   * NOTIFY), not behind the first request after them: without it, an instance that had been idle
   * answered that request with the settings of before the change, however long ago it was made
   * (an order refused “VIP 会员暂未开放购买” on B after an admin had opened VIP on A).
   */
  listen(notifications: Notifications): Promise<() => void> {
    const compare = () => {
      if (!this.cached) return;
      // After any comparison under way, which may have read the version before the change.
      this.refreshing = (this.refreshing ?? Promise.resolve())
        .then(
          () => this.check(),
          () => this.check(),
        )
        .catch(() => undefined)
        .finally(() => {
          this.refreshing = null;
        });
    };
    return notifications.subscribe(CHANNELS.settings, { onNotify: compare, onReconnect: compare });
  }

  /** Compares the version, and reads the settings when it moved (or when `force`d). */
  private async check(force = false): Promise<ConfigSnapshot> {
    const generation = this.generation;
    const startedAt = Date.now();
    // The version first: a change committed between the two reads shows at the next check.
    const version = await settingsVersion(this.db);
    let current = this.cached;
    if (force || !current || current.version !== version) {
      const rows = await this.db.selectFrom('config').select(['category', 'name', 'value', 'input_type']).execute();
      current = { snapshot: configSnapshotOf(rows), version };
      await this.preparer?.(current.snapshot).catch(() => undefined);
    }
    if (generation === this.generation) {
      this.cached = current;
      this.checkedAt = startedAt;
    }
    return current.snapshot;
  }
}
