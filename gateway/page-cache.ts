// Everything the gateway keeps to make public pages, in one object with one invalidation
// signal (`invalidate`):
// - the public start data (settings, navigation, categories), inlined into every page;
// - the route data: visitors' answers of the public pages' first calls, per call URL (the same
//   for everybody);
// - the pages, as bytes (encoding a page on every answer cost a third of the rate): a visitor's
//   per key (URL, origin, crawler or person), a logged-in visitor's per session for the pages
//   without route data (their data would be the visitor's own).
// Each is kept for its lifetime at most. `invalidate` drops what a change makes stale: a write
// passing through the gateway (gateway/cache-rules.ts) and, when the backend runs in this
// process, every content change the backend tells (gateway/embedded-backend.ts), such as a
// conversion that publishes a document. A backend reached over HTTP (BACKEND_URL) tells the
// gateway nothing: changes not made through this gateway then show once the lifetimes run out.
// A kept page holds while the start data and the generation it was made from are the current
// ones: the one test of whether a page is current, for the plugin and for the lane in front of Fastify.
import type { RenderedPage } from './page-render';
import type { BackendAnswer } from './plugins/backend-client';
import type { VisitorSession } from './plugins/page-guard';
import type { PublicStartData } from './plugins/start-data';

/** What a change makes stale. */
export interface PageStaleness {
  publicStartData: boolean;
  routeData: boolean;
}

/** Changes told by a backend in this process: calls `listener` on each; the answer stops it. */
export type PageChangeFeed = (listener: (stale: PageStaleness) => void) => () => void;

/** What a page was made from: it is current while both are the cache's current ones. */
interface PageVersion {
  publicPart: PublicStartData | undefined;
  generation: number;
}

const sameVersion = (a: PageVersion, b: PageVersion) => a.publicPart === b.publicPart && a.generation === b.generation;

interface KeptPage {
  expires: number;
  version: PageVersion;
  page: RenderedPage;
}

/** A call's answer; undefined: none (the SPA makes the call itself). */
export type RouteAnswer = BackendAnswer<unknown> | undefined;

export interface PageCacheOptions {
  /** How long the public start data is reused. */
  startDataTtlMs: number;
  /** How long a visitor's route data answer, and a visitor's page made with it, are reused. */
  routeDataTtlMs: number;
  /** How many route data answers, and how many visitors' pages, are kept at most (oldest out first). */
  maxEntries: number;
  /** How many pages a logged-in visitor's session keeps. */
  maxSessionPages: number;
  /** How many bytes of HTML the sessions' pages kept hold at most, all sessions together (oldest out first). */
  maxSessionPageBytes?: number;
  /** How many bytes of HTML the visitors' pages kept hold at most (a reader's page carries its first page image). */
  maxPageBytes?: number;
  /** How many bytes of JSON the route data answers kept hold at most (a list of documents is up to 110 KiB). */
  maxAnswerBytes?: number;
}

interface SessionPage {
  publicPart: PublicStartData | undefined;
  page: RenderedPage;
}
type SessionPages = Map<string, SessionPage>;

interface KeptAnswer {
  expires: number;
  answer: Promise<RouteAnswer>;
  /** the answer's length once it came (0 before) */
  bytes: number;
}

export class PageCache {
  /** Bumped by every change: what was read or made before it is not kept, nor answered. */
  #generation = 0;
  #startData: { data: PublicStartData; expires: number } | undefined;
  readonly #answers = new Map<string, KeptAnswer>();
  #answerBytes = 0;
  readonly #visitorPages = new Map<string, KeptPage>();
  #visitorPageBytes = 0;
  /** A visitor's page being made anew: one making per page, however many ask meanwhile. */
  readonly #making = new Map<string, { version: PageVersion; page: Promise<RenderedPage> }>();
  readonly #sessionPages = new WeakMap<VisitorSession, SessionPages>();
  /** Every session's kept pages, oldest first, with where each is kept: their bytes are bounded together. */
  readonly #sessionPageOrder = new Map<SessionPage, { pages: SessionPages; key: string }>();
  #sessionPageBytes = 0;

  constructor(private readonly opts: PageCacheOptions) {}

  get generation(): number {
    return this.#generation;
  }

  /** The one invalidation signal: drops what the change makes stale, and every visitor's page. */
  invalidate(stale: PageStaleness): void {
    if (!stale.publicStartData && !stale.routeData) return;
    this.#generation++;
    if (stale.publicStartData) this.#startData = undefined;
    if (stale.routeData) {
      this.#answers.clear();
      this.#answerBytes = 0;
    }
    this.#visitorPages.clear();
    this.#visitorPageBytes = 0;
  }

  #dropAnswer(url: string): void {
    const kept = this.#answers.get(url);
    if (kept === undefined) return;
    this.#answerBytes -= kept.bytes;
    this.#answers.delete(url);
  }

  #trimAnswers(): void {
    const maxBytes = this.opts.maxAnswerBytes ?? Number.POSITIVE_INFINITY;
    while (this.#answers.size > this.opts.maxEntries || (this.#answerBytes > maxBytes && this.#answers.size > 1))
      this.#dropAnswer(this.#answers.keys().next().value as string);
  }

  #dropPage(key: string): void {
    const kept = this.#visitorPages.get(key);
    if (kept === undefined) return;
    this.#visitorPageBytes -= kept.page.html.byteLength;
    this.#visitorPages.delete(key);
  }

  #keepPage(key: string, kept: KeptPage): void {
    this.#dropPage(key);
    this.#visitorPages.set(key, kept);
    this.#visitorPageBytes += kept.page.html.byteLength;
    const maxBytes = this.opts.maxPageBytes ?? Number.POSITIVE_INFINITY;
    while (
      this.#visitorPages.size > this.opts.maxEntries ||
      (this.#visitorPageBytes > maxBytes && this.#visitorPages.size > 1)
    )
      this.#dropPage(this.#visitorPages.keys().next().value as string);
  }

  /** The public start data while within its lifetime. */
  startData(): PublicStartData | undefined {
    return this.#startData && this.#startData.expires > Date.now() ? this.#startData.data : undefined;
  }

  /** The last start data kept, even past its lifetime (for when the backend cannot give it). */
  lastStartData(): PublicStartData | undefined {
    return this.#startData?.data;
  }

  /** Keeps start data read since `generation`, unless a change came meanwhile (it may have read the old data). */
  keepStartData(data: PublicStartData, generation: number): void {
    if (generation === this.#generation) this.#startData = { data, expires: Date.now() + this.opts.startDataTtlMs };
  }

  /**
   * A visitor's answer of the call `url`: the kept one within its lifetime, else `call`'s, kept
   * while it is an answer (200, or the API's 404) and no change overtook it.
   */
  routeAnswer(url: string, call: () => Promise<RouteAnswer>): Promise<RouteAnswer> {
    const hit = this.#answers.get(url);
    if (hit && hit.expires > Date.now()) return hit.answer;
    this.#dropAnswer(url);
    const started = this.#generation;
    const answer = call();
    const kept: KeptAnswer = { expires: Date.now() + this.opts.routeDataTtlMs, answer, bytes: 0 };
    this.#answers.set(url, kept);
    void answer.then((a) => {
      if (this.#answers.get(url) !== kept) return;
      if ((a?.status !== 200 && a?.status !== 404) || this.#generation !== started) return this.#dropAnswer(url);
      kept.bytes = a.bytes ?? 0;
      this.#answerBytes += kept.bytes;
      this.#trimAnswers();
    });
    this.#trimAnswers();
    return answer;
  }

  #version(publicPart: PublicStartData | undefined): PageVersion {
    return { publicPart, generation: this.#generation };
  }

  /**
   * A visitor's page made with `publicPart`: the kept one while it is current; else made by
   * `make` (once, however many ask). A page past its time is answered while its successor is
   * made (its first screen takes a few milliseconds on the renderer's thread): nobody waits for it.
   */
  visitorPage(
    key: string,
    publicPart: PublicStartData | undefined,
    make: () => Promise<RenderedPage>,
  ): RenderedPage | Promise<RenderedPage> {
    const version = this.#version(publicPart);
    const kept = this.#visitorPages.get(key);
    const current = kept && sameVersion(kept.version, version) ? kept.page : undefined;
    if (current && kept!.expires > Date.now()) return current;
    const inFlight = this.#making.get(key);
    let making = inFlight && sameVersion(inFlight.version, version) ? inFlight.page : undefined;
    if (!making) {
      const page = make().then((made) => {
        // A change while it was made, or a page made while the backend could not answer its
        // calls: it is answered to those who asked, and not kept.
        if (this.#generation !== version.generation || made.transient) return made;
        // A page made partly (its first screen late or failed) is kept as past its time: the
        // next visitors get it at once while one successor is made. Were it not kept, every
        // visitor would make it again, and under load each making would be late in its turn.
        const expires = made.partial ? 0 : Date.now() + this.opts.routeDataTtlMs;
        this.#keepPage(key, { expires, version, page: made });
        return made;
      });
      this.#making.set(key, { version, page });
      const done = () => {
        if (this.#making.get(key)?.page === page) this.#making.delete(key);
      };
      page.then(done, done);
      making = page;
    }
    return current ?? making;
  }

  /**
   * While `page` is the visitor's page kept under `key` with start data: a test of whether it
   * is still the page to answer (the same record, not expired, made from the current version).
   */
  currentTest(key: string, page: RenderedPage): ((time: number) => boolean) | undefined {
    const record = this.#visitorPages.get(key);
    if (record?.page !== page || record.version.publicPart === undefined) return undefined;
    const current = (time: number) =>
      this.#visitorPages.get(key) === record &&
      record.expires > time &&
      sameVersion(record.version, this.#version(this.startData()));
    return current(Date.now()) ? current : undefined;
  }

  /** A logged-in visitor's page, kept with the session for the same start data. */
  async sessionPage(
    session: VisitorSession,
    key: string,
    publicPart: PublicStartData | undefined,
    make: () => Promise<RenderedPage>,
  ): Promise<RenderedPage> {
    let pages = this.#sessionPages.get(session);
    const kept = pages?.get(key);
    if (kept && kept.publicPart === publicPart) return kept.page;
    const page = await make();
    if (!pages) this.#sessionPages.set(session, (pages = new Map()));
    this.#dropSessionPage(pages, key);
    const record = { publicPart, page };
    pages.set(key, record);
    this.#sessionPageOrder.set(record, { pages, key });
    this.#sessionPageBytes += page.html.byteLength;
    if (pages.size > this.opts.maxSessionPages) this.#dropSessionPage(pages, pages.keys().next().value as string);
    // A session's pages are bounded by count, the sessions by the page guard's cache; each
    // login is a new session, so without this the pages of a thousand sessions were kept.
    const maxBytes = this.opts.maxSessionPageBytes ?? Number.POSITIVE_INFINITY;
    while (this.#sessionPageBytes > maxBytes && this.#sessionPageOrder.size > 1) {
      const [, oldest] = this.#sessionPageOrder.entries().next().value!;
      this.#dropSessionPage(oldest.pages, oldest.key);
    }
    return page;
  }

  #dropSessionPage(pages: SessionPages, key: string): void {
    const record = pages.get(key);
    if (record === undefined) return;
    pages.delete(key);
    this.#sessionPageOrder.delete(record);
    this.#sessionPageBytes -= record.page.html.byteLength;
  }
}
