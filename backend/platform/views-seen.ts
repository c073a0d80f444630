import { addressKey } from '../../shared/address-key';

// A reader's views of one document (or one article) count once a day per client address
// (decision 119; an IPv6 reader by the /64: addressKey): reloading the page, or a loop asking
// for it, does not move `view_count`, the day's views (`document_view_day`, 热门) or the search
// index's 浏览最多. What was counted is remembered in this process only, no write per view: a
// bounded set of address + item + UTC day (this process's clock), the oldest forgotten first
// past its bound. Several instances each count a reader once; an address forgotten (the bound
// reached, a restart) counts again.

/** How many address + item + day keys one process remembers by default (about 10 MB). */
export const VIEWS_REMEMBERED = 100_000;

export type ViewedKind = 'document' | 'article';

export class ViewsSeen {
  /** The keys in the order they came: a Map's first key is the oldest. */
  private readonly seen = new Map<string, true>();

  constructor(private readonly limit: number = VIEWS_REMEMBERED) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`ViewsSeen: bound ${limit} is not a positive integer`);
  }

  /**
   * Whether this view is the address's first of the item today (UTC, by this process's clock), remembering it: true
   * once, then false for the rest of the day while remembered. Checked and marked at once, so that reads at once
   * count one.
   */
  firstToday(kind: ViewedKind, id: number, address: string, at: Date = new Date()): boolean {
    const key = `${at.toISOString().slice(0, 10)} ${kind} ${id} ${addressKey(address)}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, true);
    if (this.seen.size > this.limit) this.seen.delete(this.seen.keys().next().value!);
    return true;
  }

  /** How many keys are remembered (at most the bound). */
  get size(): number {
    return this.seen.size;
  }
}
