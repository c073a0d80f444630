import type { Database } from '../db';
import { databaseServerDay } from '../db/dialect';
import { addressKey } from '../../shared/address-key';

// A reader's views of one document (or one article) count once a day per client address
// (decision 119; an IPv6 reader by its prefix, CLIENT_IPV6_PREFIX: addressKey): reloading the
// page, or a loop asking for it, does not move `view_count`, the day's views
// (`document_view_day`, 热门) or the search index's 浏览最多. What was counted is remembered in the
// `view_seen` table (migration 046), so that every backend process sharing the database counts a
// reader once between them, on the server's day of the database's clock (its time zone's, as
// every daily count: the day `document_view_day` counts on, whatever a machine's clock says;
// decision 122). One statement per view: an insert that finds the key of the day there inserts
// nothing, and nothing is counted. Bounded: past days are dropped, and past its bound the oldest
// keys are forgotten first (they then count again).

/** How many address + item + day keys the table keeps by default (about 10 MB of rows and index). */
export const VIEWS_REMEMBERED = 100_000;

export type ViewedKind = 'document' | 'article';

export class ViewsSeen {
  /** Keys this process added since it last cut the table back. */
  private added = 0;
  /** How many keys a process adds between two cuts: the table holds at most 0.1 % more than its bound per process. */
  private readonly trimEvery: number;

  constructor(
    private readonly db: Database,
    /** CLIENT_IPV6_PREFIX: an IPv6 reader counts by its prefix of so many bits (addressKey). */
    private readonly ipv6Prefix: number,
    private readonly limit: number = VIEWS_REMEMBERED,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`ViewsSeen: bound ${limit} is not a positive integer`);
    this.trimEvery = Math.max(1, Math.floor(limit / 1000));
  }

  /**
   * Whether this view is the address's first of the item today (the server's day of the database's now), remembering it: true once,
   * then false for the rest of the day while remembered. Checked and marked in one statement, so that reads at once,
   * through any of the processes sharing the database, count one.
   */
  async firstToday(kind: ViewedKind, id: number, address: string): Promise<boolean> {
    const inserted = await this.db
      .insertInto('view_seen')
      .values({ day: databaseServerDay(this.db), key: `${kind} ${id} ${addressKey(address, this.ipv6Prefix)}` })
      .onConflict((oc) => oc.columns(['day', 'key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return false;
    this.added += 1;
    if (this.added >= this.trimEvery) {
      this.added = 0;
      await this.trim();
    }
    return true;
  }

  /** Drops the keys of past days, then all but the newest `limit`. */
  private async trim(): Promise<void> {
    await this.db.deleteFrom('view_seen').where('day', '<', databaseServerDay(this.db)).execute();
    // The id of the newest key past the bound (none while the table holds no more): it and those before go.
    const newestPast = this.db.selectFrom('view_seen').select('id').orderBy('id', 'desc').limit(1).offset(this.limit);
    await this.db.deleteFrom('view_seen').where('id', '<=', newestPast).execute();
  }
}
