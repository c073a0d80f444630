import { describe, expect, it } from 'vitest';
import { PageCache } from '../../gateway/page-cache';
import type { RenderedPage } from '../../gateway/page-render';
import type { VisitorSession } from '../../gateway/plugins/page-guard';

// The visitors' pages the gateway keeps are bounded by count and by bytes of HTML: a reader's
// page carries its first page image inside it (gateway/inline-image.ts), a few hundred KiB.

const page = (bytes: number): RenderedPage => ({ status: 200, html: Buffer.alloc(bytes, 'x'), forCrawlers: false });

function cache(
  maxEntries: number,
  maxPageBytes?: number,
  maxAnswerBytes?: number,
  maxSessionPageBytes?: number,
): PageCache {
  return new PageCache({
    startDataTtlMs: 60_000,
    routeDataTtlMs: 60_000,
    maxEntries,
    maxSessionPages: 4,
    maxPageBytes,
    maxAnswerBytes,
    maxSessionPageBytes,
  });
}

/** Whether `key`'s page is answered from the cache (not made again). */
async function kept(pages: PageCache, key: string): Promise<boolean> {
  let made = false;
  await pages.visitorPage(key, undefined, async () => {
    made = true;
    return page(1);
  });
  return !made;
}

describe('the visitors’ pages kept', () => {
  it('hold at most the bytes of HTML they are given, the oldest out first', async () => {
    const pages = cache(100, 250);
    for (const key of ['/a', '/b', '/c']) await pages.visitorPage(key, undefined, async () => page(100));
    expect(await kept(pages, '/c')).toBe(true);
    expect(await kept(pages, '/b')).toBe(true);
    expect(await kept(pages, '/a')).toBe(false);
  });

  it('hold at most as many pages as they are given, and one page larger than the bound', async () => {
    const pages = cache(2);
    for (const key of ['/a', '/b', '/c']) await pages.visitorPage(key, undefined, async () => page(10));
    expect(await kept(pages, '/c')).toBe(true);
    expect(await kept(pages, '/a')).toBe(false);
    const small = cache(10, 50);
    await small.visitorPage('/big', undefined, async () => page(500));
    expect(await kept(small, '/big')).toBe(true);
  });
});

/** Whether the answer of the call `url` is the one kept (the call is not made again). */
async function answerKept(pages: PageCache, url: string, bytes = 100): Promise<boolean> {
  let called = false;
  await pages.routeAnswer(url, async () => {
    called = true;
    return { status: 200, body: { list: [] }, bytes };
  });
  return !called;
}

describe('the route data answers kept', () => {
  it('hold at most the bytes of JSON they are given, the oldest out first', async () => {
    const pages = cache(100, undefined, 250);
    for (const url of ['/api/v1/document/list?page=1', '/api/v1/document/list?page=2', '/api/v1/document/list?page=3'])
      await answerKept(pages, url);
    expect(await answerKept(pages, '/api/v1/document/list?page=3')).toBe(true);
    expect(await answerKept(pages, '/api/v1/document/list?page=2')).toBe(true);
    expect(await answerKept(pages, '/api/v1/document/list?page=1')).toBe(false);
  });

  it('hold at most as many answers as they are given, and one answer larger than the bound', async () => {
    const pages = cache(2);
    for (const url of ['/a', '/b', '/c']) await answerKept(pages, url, 10);
    expect(await answerKept(pages, '/c')).toBe(true);
    expect(await answerKept(pages, '/a')).toBe(false);
    const small = cache(10, undefined, 50);
    await answerKept(small, '/big', 500);
    expect(await answerKept(small, '/big')).toBe(true);
  });
});

/** Whether the session's page `key` is answered from the cache (not made again). */
async function sessionPageKept(pages: PageCache, session: VisitorSession, key: string): Promise<boolean> {
  let made = false;
  await pages.sessionPage(session, key, undefined, async () => {
    made = true;
    return page(1);
  });
  return !made;
}

describe('the logged-in visitors’ pages kept', () => {
  it('hold at most the bytes of HTML they are given, all sessions together, the oldest out first', async () => {
    const pages = cache(100, undefined, undefined, 250);
    // Each login is a session of its own, with pages of its own.
    const sessions: VisitorSession[] = ['a', 'b', 'c'].map((token) => ({ token, allowPages: [] }));
    for (const session of sessions) await pages.sessionPage(session, '/auth/login', undefined, async () => page(100));
    expect(await sessionPageKept(pages, sessions[2]!, '/auth/login')).toBe(true);
    expect(await sessionPageKept(pages, sessions[1]!, '/auth/login')).toBe(true);
    expect(await sessionPageKept(pages, sessions[0]!, '/auth/login')).toBe(false);
  });

  it('hold at most as many pages per session as they are given', async () => {
    const pages = cache(100);
    const session: VisitorSession = { token: 'a', allowPages: [] };
    for (const key of ['/1', '/2', '/3', '/4', '/5'])
      await pages.sessionPage(session, key, undefined, async () => page(10));
    expect(await sessionPageKept(pages, session, '/5')).toBe(true);
    expect(await sessionPageKept(pages, session, '/1')).toBe(false);
  });
});
