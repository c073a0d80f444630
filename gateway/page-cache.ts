// The pages the SPA plugin keeps, as bytes (encoding a page on every answer cost a third of
// the rate): a visitor's page per key (URL, origin, crawler or person) while its route data
// lives, as it is the same for every visitor; a logged-in visitor's per session, for the
// pages without route data (their data would be the visitor's own). A kept page holds while
// the start data and route data generation it was made from are the current ones: the one
// test of whether a page is current, for the plugin and for the lane in front of Fastify.
import type { RenderedPage } from './page-render';
import type { VisitorSession } from './plugins/page-guard';
import type { PublicStartData } from './plugins/start-data';

/** What a page was made from: it is current while both are the gateway's current ones. */
export interface PageVersion {
  publicPart: PublicStartData | undefined;
  generation: number;
}

const sameVersion = (a: PageVersion, b: PageVersion) => a.publicPart === b.publicPart && a.generation === b.generation;

interface KeptPage {
  expires: number;
  version: PageVersion;
  page: RenderedPage;
}

export interface PageCacheOptions {
  /** How long a visitor's page is reused (the route data's lifetime). */
  ttlMs: number;
  /** How many visitors' pages are kept at most. */
  maxPages: number;
  /** How many pages a logged-in visitor's session keeps. */
  maxSessionPages: number;
}

export class PageCache {
  private readonly visitorPages = new Map<string, KeptPage>();
  /** A visitor's page being made anew: one making per page, however many ask meanwhile. */
  private readonly making = new Map<string, { version: PageVersion; page: Promise<RenderedPage> }>();
  private readonly sessionPages = new WeakMap<
    VisitorSession,
    Map<string, { publicPart: PublicStartData | undefined; page: RenderedPage }>
  >();

  constructor(private readonly opts: PageCacheOptions) {}

  /**
   * A visitor's page: the kept one while it is current; else made by `make` (once, however
   * many ask). A page past its time is answered while its successor is made (its first screen
   * takes a few milliseconds on the renderer's thread): nobody waits for it.
   */
  visitorPage(
    key: string,
    version: PageVersion,
    make: () => Promise<RenderedPage>,
  ): RenderedPage | Promise<RenderedPage> {
    const kept = this.visitorPages.get(key);
    const current = kept && sameVersion(kept.version, version) ? kept.page : undefined;
    if (current && kept!.expires > Date.now()) return current;
    const inFlight = this.making.get(key);
    let making = inFlight && sameVersion(inFlight.version, version) ? inFlight.page : undefined;
    if (!making) {
      const page = make().then((made) => {
        this.visitorPages.delete(key);
        this.visitorPages.set(key, { expires: Date.now() + this.opts.ttlMs, version, page: made });
        while (this.visitorPages.size > this.opts.maxPages)
          this.visitorPages.delete(this.visitorPages.keys().next().value as string);
        return made;
      });
      this.making.set(key, { version, page });
      const done = () => {
        if (this.making.get(key)?.page === page) this.making.delete(key);
      };
      page.then(done, done);
      making = page;
    }
    return current ?? making;
  }

  /**
   * While `page` is the visitor's page kept under `key` with start data: a test of whether it
   * is still the page to answer (the same record, not expired, made from `now()`'s version).
   */
  currentTest(key: string, page: RenderedPage, now: () => PageVersion): ((time: number) => boolean) | undefined {
    const record = this.visitorPages.get(key);
    if (record?.page !== page || record.version.publicPart === undefined) return undefined;
    const current = (time: number) =>
      this.visitorPages.get(key) === record && record.expires > time && sameVersion(record.version, now());
    return current(Date.now()) ? current : undefined;
  }

  /** A logged-in visitor's page, kept with the session for the same start data. */
  async sessionPage(
    session: VisitorSession,
    key: string,
    publicPart: PublicStartData | undefined,
    make: () => Promise<RenderedPage>,
  ): Promise<RenderedPage> {
    let pages = this.sessionPages.get(session);
    const kept = pages?.get(key);
    if (kept && kept.publicPart === publicPart) return kept.page;
    const page = await make();
    if (!pages) this.sessionPages.set(session, (pages = new Map()));
    pages.set(key, { publicPart, page });
    if (pages.size > this.opts.maxSessionPages) pages.delete(pages.keys().next().value as string);
    return page;
  }
}
