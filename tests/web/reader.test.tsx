// The reader inside the real route tree, with a scripted backend and an IntersectionObserver
// the test drives: lazy page images, the n / N counter, jumping, zoom, keyboard, the end of
// the free preview, conversion states and the download button's refusals.
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { Document, FindInDocumentReply } from '../../shared/types/document';
import { createQueryClient } from '../../web/src/api/query-client';
import { applyStartData } from '../../web/src/app/boot';
import { CONVERSION_POLL } from '../../web/src/features/document/conversion';
import { DocumentPages } from '../../web/src/features/reader/DocumentPages';
import { FindInDocument, TYPING_PAUSE_MS } from '../../web/src/features/reader/FindInDocument';
import { findInDocumentQuery } from '../../web/src/features/reader/page-text-api';
import { SETTLE_MS } from '../../web/src/features/reader/resume-reading';
import { NEAR_MARGIN } from '../../web/src/features/reader/use-lazy-pages';
import { clearSession, session } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { expectConversionPolling, fakePolling, nextPoll } from './polling';
import { admin, holdCalls, member, renderApp, settings, type Backend, type scriptedFetch } from './render-app';

const HASH = '0123456789abcdef0123456789abcdef';

const doc: Document = {
  id: 42,
  title: '城市图书馆的一天',
  ext: '.pdf',
  pages: 8,
  preview: 3,
  width: 600,
  height: 800,
  size: 123_456,
  price: 5,
  status: 2,
  score: 400,
  score_count: 2,
  view_count: 10,
  download_count: 3,
  enable_gzip: true,
  preview_ext: '.svg',
  attachment: { hash: HASH },
  category_id: [7],
  category: [{ id: 7, title: '教育资料', parent_id: 0 }],
  created_at: '2026-11-20T08:00:00Z',
  username: 'amy',
  user: { id: 2, username: 'amy', doc_count: 4 },
  description: '一座城市图书馆的日常。',
};

/** An IntersectionObserver whose callbacks the test fires. */
class DrivenObserver {
  static all: DrivenObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    DrivenObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  /** Reports every element it watches as intersecting. */
  fireAll() {
    const entries = [...this.targets].map(
      (target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry,
    );
    act(() => this.callback(entries, this as unknown as IntersectionObserver));
  }
  /** Reports the frames of `pages` as intersecting. */
  fire(pages: number[]) {
    const entries = [...this.targets]
      .filter((t) => pages.includes(Number((t as HTMLElement).dataset.page)))
      .map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry);
    act(() => this.callback(entries, this as unknown as IntersectionObserver));
  }
}

/** Watching the pages' frames (not the download panel, which the download bar watches). */
const watchesPages = (o: DrivenObserver) => [...o.targets].some((target) => target.hasAttribute('data-page'));
const nearObserver = () => DrivenObserver.all.find((o) => o.options.rootMargin === NEAR_MARGIN && watchesPages(o));
const currentObserver = () => DrivenObserver.all.find((o) => o.options.rootMargin !== NEAR_MARGIN && watchesPages(o));

beforeEach(() => {
  DrivenObserver.all = [];
  vi.stubGlobal('IntersectionObserver', DrivenObserver);
});

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => {
    clearSession();
    clearToasts();
  });
});

function backend(overrides: Partial<Document> = {}, extra: Backend = {}, fullAccess = false): Backend {
  return {
    'GET /api/v1/document': { status: 200, body: { ...doc, ...overrides } },
    'GET /api/v1/document/related': {
      status: 200,
      body: { document: [{ id: 43, title: '古籍修复室', ext: '.docx', category_id: [7] }] },
    },
    'GET /api/v1/comment/list': { status: 200, body: {} },
    [`HEAD /view/page/${HASH}/4.gzip.svg`]: fullAccess
      ? { status: 200 }
      : { status: 403, body: { code: 403, message: '该页超出免费预览范围' } },
    ...extra,
  };
}

/** The addresses of every `GET /api/v1/document` the reader sent (with_author: the view a visit counts). */
const documentReads = (fetchMock: ReturnType<typeof scriptedFetch>) =>
  fetchMock.mock.calls
    .map(([input, init]) => ({
      url: new URL(String(input), 'http://localhost'),
      init: init as RequestInit | undefined,
    }))
    .filter(({ url, init }) => (init?.method ?? 'GET') === 'GET' && url.pathname === '/api/v1/document')
    .map(({ url }) => url);

const pageImage = (page: number) => screen.queryByRole('img', { name: `第 ${page} 页` });

/** The image of a page comes, `width` × `height` pixels. */
function loaded(image: HTMLElement, width: number, height: number): void {
  Object.defineProperties(image, { naturalWidth: { value: width }, naturalHeight: { value: height } });
  fireEvent.load(image);
}

/** Pages 2 and 3 come near, and page 2's image comes landscape (800 × 600): its box takes that shape. */
async function secondPageLandscape(): Promise<void> {
  await screen.findByRole('img', { name: '第 1 页' });
  await waitFor(() => expect(nearObserver()?.options.rootMargin).toBe(NEAR_MARGIN));
  nearObserver()?.fire([2, 3]);
  loaded(await screen.findByRole('img', { name: '第 2 页' }), 800, 600);
  await waitFor(() => expect((screen.getAllByRole('figure')[1] as HTMLElement).style.aspectRatio).toBe('800 / 600'));
}

/** The comments' region once their code came (it arrives apart, a skeleton meanwhile). */
async function commentsRegion(): Promise<HTMLElement> {
  await waitFor(() => expect(screen.getByRole('region', { name: /评论/ }).getAttribute('aria-busy')).toBeNull());
  return screen.getByRole('region', { name: /评论/ });
}

/** Brings `element` near, as the reader scrolling there: the observer watching it (once its effect ran) fires. */
async function comeNear(element: Element): Promise<void> {
  const watcher = await waitFor(() => {
    const found = DrivenObserver.all.find((o) => [...o.targets].includes(element));
    expect(found).toBeDefined();
    return found!;
  });
  watcher.fireAll();
}

describe('the reader', () => {
  it('titles the page after the document and shows its facts, breadcrumbs, author and related documents', async () => {
    renderApp('/library/7/42', { backend: backend() });
    expect(await screen.findByRole('heading', { level: 1, name: '城市图书馆的一天' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('城市图书馆的一天 - 测试文库'));
    expect(screen.getByText('8 页')).toBeTruthy();
    expect(screen.getByText('10 次浏览')).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: '当前位置' });
    expect(within(crumbs).getByRole('link', { name: '教育资料' }).getAttribute('href')).toBe('/library/7');
    expect(screen.getByText('amy')).toBeTruthy();
    expect(screen.getByRole('img', { name: '评分 4.0 分' })).toBeTruthy();
    expect((await screen.findByRole('link', { name: '古籍修复室' })).getAttribute('href')).toBe('/library/7/43');
  });

  it('links each keyword under the title to the search for it: trimmed, once each, none empty, at most eight', async () => {
    renderApp('/library/7/42', {
      backend: backend({ keywords: ' 图书馆 , 古籍修复,, 图书馆, 阅读 推广，借阅、馆藏;目录 检索 参考 读者 讲座 ' }),
    });
    const line = (await screen.findByText('关键词：')).parentElement as HTMLElement;
    const links = within(line).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([
      '图书馆',
      '古籍修复',
      '阅读',
      '推广',
      '借阅',
      '馆藏',
      '目录',
      '检索',
    ]);
    expect(links[0]!.getAttribute('href')).toBe(`/search?wd=${encodeURIComponent('图书馆')}`);
  });

  it('shows no keyword line for a document without keywords', async () => {
    renderApp('/library/7/42', { backend: backend({ keywords: ' ,， ' }) });
    await screen.findByRole('heading', { level: 1, name: '城市图书馆的一天' });
    expect(screen.queryByText('关键词：')).toBeNull();
  });

  it("says 暂无评分, with no star lit, for a document nobody rated (not MOREDOC's default score of 3)", async () => {
    renderApp('/library/7/42', { backend: backend({ score: 300, score_count: 0 }) });
    const stars = await screen.findByRole('img', { name: '暂无评分' });
    expect(stars.querySelectorAll('.app-stars__on')).toHaveLength(0);
    const rating = stars.parentElement as HTMLElement;
    expect(rating.textContent).toContain('暂无评分');
    expect(rating.textContent).not.toContain('3.0');
    expect(rating.textContent).not.toContain('人评分');
  });

  it('counts one view a visit: favouriting, unfavouriting, rating and downloading change the counts on screen without reading the document again', async () => {
    vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    let favorite: { id?: number } = {};
    let score: { score?: number } = {};
    const { fetchMock } = renderApp('/library/7/42', {
      user: { id: 5, username: 'bob' },
      backend: backend(
        { favorite_count: 1 },
        {
          'GET /api/v1/favorite': () => ({ status: 200, body: favorite }),
          'POST /api/v1/favorite': () => {
            favorite = { id: 9 };
            return { status: 200, body: { id: 9, document_id: 42 } };
          },
          'DELETE /api/v1/favorite': () => {
            favorite = {};
            return { status: 200, body: {} };
          },
          'GET /api/v1/document/score': () => ({ status: 200, body: score }),
          'POST /api/v1/document/score': () => {
            score = { score: 200 };
            return { status: 200, body: {} };
          },
          'GET /api/v1/document/download': { status: 200, body: { url: '/download/abc?document_id=42' } },
        },
      ),
    });
    // The reads that count a view (with_author); asking whether the pages past the preview open counts none.
    const reads = () => documentReads(fetchMock).filter((url) => url.searchParams.has('with_author')).length;
    expect(await screen.findByText('1 人收藏')).toBeTruthy();
    // Clicked once the member's favourite state is known (the button is busy until then).
    const settled = async (name: string) => {
      await waitFor(() => expect(screen.getByRole('button', { name }).className).not.toContain('loading'));
      return screen.getByRole('button', { name });
    };
    await userEvent.click(await settled('收藏'));
    expect(await screen.findByText('2 人收藏')).toBeTruthy();
    await userEvent.click(await settled('已收藏'));
    expect(await screen.findByText('1 人收藏')).toBeTruthy();
    await settled('收藏');
    // The member's stars say what they are for, in sight, beside the average's.
    const vote = screen.getByRole('group', { name: '给文档评分' });
    expect(within(vote).getByText('给文档评分')).toBeTruthy();
    // 4.0 from two votes, then 2 stars: (400 × 2 + 200) / 3.
    screen.getByRole('button', { name: '评 2 星' }).focus();
    await userEvent.keyboard('{Enter}');
    // The stars gone, the keyboard is on the rating given, not on <body>.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByText('您的评分：2 星')));
    expect(screen.getByRole('img', { name: '评分 3.3 分' })).toBeTruthy();
    expect(screen.getByText('（3 人评分）')).toBeTruthy();
    await userEvent.click(
      within(screen.getByRole('region', { name: '下载文档' })).getByRole('button', { name: /下载/ }),
    );
    await userEvent.click(
      within(screen.getByRole('region', { name: '下载文档' })).getByRole('button', { name: '确定下载' }),
    );
    expect(await screen.findByText('4 次下载')).toBeTruthy();
    expect(screen.getByText('10 次浏览')).toBeTruthy();
    expect(reads()).toBe(1);
  });

  it('shows the document’s approved comments under its pages, asking visitors to log in to comment', async () => {
    const { fetchMock } = renderApp('/library/7/42', {
      backend: backend(
        {},
        {
          'GET /api/v1/comment/list': {
            status: 200,
            body: {
              comment: [
                {
                  id: 5,
                  content: '很有用的资料',
                  status: 1,
                  type: 0,
                  document_id: 42,
                  user: { id: 3, username: 'bob' },
                },
              ],
            },
          },
        },
      ),
    });
    // The comments' code arrives apart (a skeleton meanwhile); their data only when the reader comes near.
    const comments = await commentsRegion();
    const asked = () => fetchMock.mock.calls.some(([url]) => String(url).includes('/api/v1/comment/list'));
    expect(asked()).toBe(false);
    // The region watches for the reader once its effect ran (a slow machine shows the gap).
    await comeNear(comments);
    expect(await within(comments).findByText('很有用的资料')).toBeTruthy();
    expect(within(comments).getByRole('link', { name: '登录' }).getAttribute('href')).toBe(
      '/auth/login?redirect=%2Flibrary%2F7%2F42',
    );
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/v1/comment/list'));
    const query = new URL(String(call?.[0]), 'http://localhost').searchParams;
    expect([query.get('type'), query.get('document_id')]).toEqual(['0', '42']);
  });

  it('takes a link to a comment (a message’s) to it once the comments come, marked; to the comments when it is gone', async () => {
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    try {
      const comments = {
        'GET /api/v1/comment/list': {
          status: 200,
          body: {
            comment: [
              { id: 7, content: '第二条', status: 1, type: 0, document_id: 42, user: { id: 4, username: 'cat' } },
              {
                id: 6,
                content: '同意',
                status: 1,
                type: 0,
                document_id: 42,
                parent_id: 5,
                user: { id: 3, username: 'bob' },
              },
              { id: 5, content: '很有用的资料', status: 1, type: 0, document_id: 42, user: { id: 2, username: 'amy' } },
            ],
          },
        },
      };
      for (const [hash, target] of [
        ['#comment-6', () => document.getElementById('comment-6')],
        // Deleted since the message: the comments, and no error.
        ['#comment-3', () => document.getElementById('comments')],
      ] as const) {
        renderApp(`/library/7/42${hash}`, { backend: backend({}, comments) });
        const section = await commentsRegion();
        // Held at the comments while their list is not there (nor asked for, until they are near).
        await waitFor(() => expect(scrolled.at(-1)).toBe(section));
        await comeNear(section);
        expect(await within(section).findByText('同意')).toBeTruthy();
        await waitFor(() => expect(scrolled.at(-1)).toBe(target()));
        const marked = [...section.querySelectorAll('.app-comment--marked')].map((c) => c.id);
        expect(marked).toEqual(hash === '#comment-6' ? ['comment-6'] : []);
        expect(within(section).queryByText('评论加载失败')).toBeNull();
        cleanup();
        DrivenObserver.all = [];
        scrolled.length = 0;
      }
    } finally {
      scrollIntoView.mockRestore();
    }
  });

  it('counts every approved comment in the heading when the list gives only the newest, and says so at its end', async () => {
    const amy = { id: 2, username: 'amy' };
    renderApp('/library/7/42', {
      backend: backend(
        {},
        {
          'GET /api/v1/comment/list': {
            status: 200,
            body: {
              comment: [
                { id: 1500, content: '最新的评论', status: 1, type: 0, document_id: 42, user: amy },
                { id: 1499, content: '次新的评论', status: 1, type: 0, document_id: 42, user: amy },
              ],
              total: 1500,
            },
          },
        },
      ),
    });
    const section = await commentsRegion();
    await comeNear(section);
    expect(await within(section).findByText('次新的评论')).toBeTruthy();
    expect(within(section).getByRole('heading', { level: 2 }).textContent).toBe('评论（1500）');
    expect(within(section).getByText('仅显示最新的 2 条评论')).toBeTruthy();
  });

  it('takes a link to a comment older than those the list gives to it, in its thread asked for apart', async () => {
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    onTestFinished(() => scrollIntoView.mockRestore());
    const amy = { id: 2, username: 'amy' };
    const { fetchMock } = renderApp('/library/7/42#comment-3', {
      backend: backend(
        {},
        {
          'GET /api/v1/comment/list': {
            status: 200,
            body: {
              comment: [{ id: 1007, content: '最新的评论', status: 1, type: 0, document_id: 42, user: amy }],
              total: 1000,
            },
          },
          'GET /api/v1/comment/thread': {
            status: 200,
            body: {
              comment: [
                { id: 2, content: '很早的评论', status: 1, type: 0, document_id: 42, user: amy },
                { id: 3, content: '很早的回复', status: 1, type: 0, document_id: 42, parent_id: 2, user: amy },
              ],
              total: 2,
            },
          },
        },
      ),
    });
    const section = await commentsRegion();
    await comeNear(section);
    expect(await within(section).findByText('很早的回复')).toBeTruthy();
    await waitFor(() => expect(scrolled.at(-1)).toBe(document.getElementById('comment-3')));
    expect([...section.querySelectorAll('.app-comment--marked')].map((c) => c.id)).toEqual(['comment-3']);
    // In its place, after the newer ones.
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.app-comment')?.id),
    ).toEqual(['comment-1007', 'comment-2', 'comment-3']);
    // The note under them says the older thread is shown beside the newest listed.
    expect(section.querySelector('.app-comments__older')?.textContent).toBe('仅显示最新的 1 条评论及链接所指的评论');
    const asked = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost'));
    expect(asked.filter((url) => url.pathname === '/api/v1/comment/thread').map((url) => url.search)).toEqual([
      '?id=3',
    ]);
  });

  it('draws a window of threads around a link to a very old comment, the newer above and the older below opened by steps', async () => {
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => {});
    onTestFinished(() => scrollIntoView.mockRestore());
    const amy = { id: 2, username: 'amy' };
    // 1,001 threads, newest first: the linked comment 5 is the 997th.
    const list = Array.from({ length: 1001 }, (_, i) => ({
      id: 1001 - i,
      content: `第 ${1001 - i} 条评论`,
      status: 1,
      type: 0,
      document_id: 42,
      user: amy,
    }));
    renderApp('/library/7/42#comment-5', {
      backend: backend({}, { 'GET /api/v1/comment/list': { status: 200, body: { comment: list, total: 1001 } } }),
    });
    const section = await commentsRegion();
    await comeNear(section);
    expect(await within(section).findByText('第 5 条评论')).toBeTruthy();
    const shownIds = () =>
      [...section.querySelectorAll('.app-comments__thread > .app-comment')].map((c) => Number(c.id.slice(8)));
    // Its step of 20 threads and the one before it, not the 996 newer ones.
    expect(shownIds()).toHaveLength(40);
    expect([shownIds()[0], shownIds().at(-1)]).toEqual([41, 2]);
    expect([...section.querySelectorAll('.app-comment--marked')].map((c) => c.id)).toEqual(['comment-5']);
    const newer = within(section).getByRole('button', { name: '查看较新的评论（还有 960 条）' });
    const older = within(section).getByRole('button', { name: '查看更多评论（还有 1 条）' });
    // Newer ones above, the keyboard on the first of them.
    await userEvent.click(newer);
    expect(shownIds()).toHaveLength(60);
    expect(shownIds()[0]).toBe(61);
    expect(document.activeElement?.querySelector('.app-comment')?.id).toBe('comment-61');
    expect(within(section).getByRole('button', { name: '查看较新的评论（还有 940 条）' })).toBeTruthy();
    // The last one below, and the button gone.
    await userEvent.click(older);
    expect(shownIds().at(-1)).toBe(1);
    expect(document.activeElement?.querySelector('.app-comment')?.id).toBe('comment-1');
    expect(within(section).queryByRole('button', { name: /查看更多评论/ })).toBeNull();
  });

  it('keeps a comment being written on the document while the reader is elsewhere', async () => {
    renderApp('/library/7/42', { backend: backend(), user: member });
    await userEvent.type(await screen.findByLabelText('发表评论'), '第 3 页有个错字');
    cleanup();
    renderApp('/library/7/42', { backend: backend(), user: member });
    expect((await screen.findByLabelText<HTMLTextAreaElement>('发表评论')).value).toBe('第 3 页有个错字');
  });

  it('loads the first page at once with high priority, and the next ones only when they come near', async () => {
    renderApp('/library/7/42', { backend: backend() });
    const first = await screen.findByRole('img', { name: '第 1 页' });
    expect(first.getAttribute('src')).toBe(`/view/page/${HASH}/1.gzip.svg`);
    expect(first.getAttribute('fetchpriority')).toBe('high');
    expect(first.getAttribute('loading')).toBe('eager');
    // Every free page has its frame, in the page's own shape, but no image yet.
    const frames = screen.getAllByRole('figure');
    expect(frames).toHaveLength(3);
    expect((frames[1] as HTMLElement).style.aspectRatio).toBe('600 / 800');
    expect(pageImage(2)).toBeNull();
    expect(pageImage(3)).toBeNull();
    // The frames are watched once the effect ran (a slow machine shows the gap).
    await waitFor(() => expect(nearObserver()?.options.rootMargin).toBe(NEAR_MARGIN));

    nearObserver()?.fire([2]);
    const second = await screen.findByRole('img', { name: '第 2 页' });
    expect(second.getAttribute('src')).toBe(`/view/page/${HASH}/2.gzip.svg`);
    expect(second.getAttribute('loading')).toBe('lazy');
    expect(pageImage(3)).toBeNull();
  });

  it('says 第 N 页正在加载… on a page until its image comes, and no more once it came or failed', async () => {
    renderApp('/library/7/42', { backend: backend() });
    const first = await screen.findByRole('img', { name: '第 1 页' });
    const frame = (page: number) => screen.getByRole('figure', { name: `第 ${page} 页` });
    expect(within(frame(1)).getByText('第 1 页正在加载…')).toBeTruthy();
    // A page not near yet says so too: scrolled to fast, it is what shows until its image comes.
    expect(within(frame(3)).getByText('第 3 页正在加载…')).toBeTruthy();
    fireEvent.load(first);
    expect(within(frame(1)).queryByText(/正在加载/)).toBeNull();

    await waitFor(() => expect(nearObserver()?.options.rootMargin).toBe(NEAR_MARGIN));
    nearObserver()?.fire([2]);
    const second = await screen.findByRole('img', { name: '第 2 页' });
    expect(within(frame(2)).getByText('第 2 页正在加载…')).toBeTruthy();
    fireEvent.error(second);
    expect(within(frame(2)).queryByText(/正在加载/)).toBeNull();
    expect(within(frame(2)).getByRole('alert').textContent).toContain('第 2 页加载失败');
  });

  it("says 正在加载… in the gateway's first screen on the pages it draws without their image, not on the first", () => {
    const queryClient = createQueryClient();
    applyStartData(queryClient, { settings, navigation: [], categories: [] });
    const html = renderToString(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/library/7/42']}>
          <DocumentPages doc={doc} shownPages={3} locked={undefined} copyText />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const frames = new DOMParser().parseFromString(html, 'text/html').querySelectorAll('figure');
    expect(
      [...frames].map((frame) => [!!frame.querySelector('img'), frame.textContent?.includes('正在加载…')]),
    ).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });

  it('gives a page whose image has another shape than the first page (landscape) a box of its own shape', async () => {
    renderApp('/library/7/42', { backend: backend() });
    const first = await screen.findByRole('img', { name: '第 1 页' });
    await waitFor(() => expect(nearObserver()?.options.rootMargin).toBe(NEAR_MARGIN));
    nearObserver()?.fire([2]);
    const second = await screen.findByRole('img', { name: '第 2 页' });
    // The first page's image is the document's shape give or take its rounding: its box stays.
    loaded(first, 601, 800);
    loaded(second, 800, 600);
    const [frame1, frame2] = screen.getAllByRole('figure') as HTMLElement[];
    await waitFor(() => expect(frame2!.style.aspectRatio).toBe('800 / 600'));
    expect(frame1!.style.aspectRatio).toBe('600 / 800');
  });

  it('gives the pages back, on a return to the document, the shapes their images came in', async () => {
    const { router } = renderApp('/library/7/42', { backend: backend() });
    await secondPageLandscape();

    await act(() => router.navigate('/library'));
    await act(() => router.navigate(-1));
    // Before any image comes (page 2's is not even asked for: it is far from the viewport now).
    const frames = (await screen.findAllByRole('figure')) as HTMLElement[];
    expect(pageImage(2)).toBeNull();
    expect(frames.map((frame) => frame.style.aspectRatio).slice(0, 3)).toEqual(['600 / 800', '800 / 600', '600 / 800']);
  });

  it('gives the pages back their shapes after a reload (the app started anew in the tab), not to another file', async () => {
    const before = renderApp('/library/7/42', { backend: backend() });
    await secondPageLandscape();
    before.unmount();

    const reloaded = renderApp('/library/7/42', { backend: backend() });
    const frames = (await screen.findAllByRole('figure')) as HTMLElement[];
    expect(pageImage(2)).toBeNull();
    expect(frames.map((frame) => frame.style.aspectRatio).slice(0, 3)).toEqual(['600 / 800', '800 / 600', '600 / 800']);
    reloaded.unmount();

    // The document's file replaced since: its pages come in shapes of their own.
    renderApp('/library/7/42', { backend: backend({ attachment: { hash: 'f'.repeat(32) } }) });
    const others = (await screen.findAllByRole('figure')) as HTMLElement[];
    expect(others.map((frame) => frame.style.aspectRatio).slice(0, 3)).toEqual(['600 / 800', '600 / 800', '600 / 800']);
  });

  it('tries the failed pages again by themselves once another page comes, or the browser is back online', async () => {
    renderApp('/library/7/42', { backend: backend() });
    await screen.findByRole('img', { name: '第 1 页' });
    await waitFor(() => expect(nearObserver()?.options.rootMargin).toBe(NEAR_MARGIN));
    nearObserver()?.fire([2, 3]);
    await screen.findByRole('img', { name: '第 3 页' });
    // The file store is away: every page fails, and each says so with its own 重试.
    for (const page of [1, 2, 3]) fireEvent.error(pageImage(page) as HTMLElement);
    expect(screen.getAllByRole('alert')).toHaveLength(3);
    expect(pageImage(1)).toBeNull();

    // It is back: the reader retries one page, it comes, and the other two try again unasked.
    const frame = (page: number) => screen.getByRole('figure', { name: `第 ${page} 页` });
    await userEvent.click(within(frame(1)).getByRole('button', { name: '重试' }));
    fireEvent.load(pageImage(1) as HTMLElement);
    expect(pageImage(2)?.getAttribute('src')).toBe(`/view/page/${HASH}/2.gzip.svg?retry=1`);
    expect(pageImage(3)?.getAttribute('src')).toBe(`/view/page/${HASH}/3.gzip.svg?retry=1`);
    expect(screen.queryByRole('alert')).toBeNull();

    // Away again for the two: nothing comes that would retry them, until the browser is online.
    fireEvent.error(pageImage(2) as HTMLElement);
    fireEvent.error(pageImage(3) as HTMLElement);
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(pageImage(2)?.getAttribute('src')).toBe(`/view/page/${HASH}/2.gzip.svg?retry=2`);
    expect(pageImage(3)?.getAttribute('src')).toBe(`/view/page/${HASH}/3.gzip.svg?retry=2`);
    // The page that came is left alone.
    expect(pageImage(1)?.getAttribute('src')).toBe(`/view/page/${HASH}/1.gzip.svg?retry=1`);
  });

  it('tries a failed page again when the reader comes back to it', async () => {
    renderApp('/library/7/42', { backend: backend() });
    await screen.findByRole('img', { name: '第 1 页' });
    await waitFor(() => expect(nearObserver()?.options.rootMargin).toBe(NEAR_MARGIN));
    nearObserver()?.fire([2, 3]);
    await screen.findByRole('img', { name: '第 3 页' });
    currentObserver()?.fire([3]);
    fireEvent.error(pageImage(3) as HTMLElement);
    expect(within(screen.getByRole('figure', { name: '第 3 页' })).getByRole('alert').textContent).toContain(
      '第 3 页加载失败',
    );
    // Read elsewhere, nothing retries it; come back to it, and it tries once more.
    const inSight = (page: number) => {
      const observer = currentObserver() as DrivenObserver;
      const entries = [...observer.targets].map(
        (target) =>
          ({
            target,
            isIntersecting: (target as HTMLElement).dataset.page === String(page),
          }) as unknown as IntersectionObserverEntry,
      );
      act(() => observer.callback(entries, observer as unknown as IntersectionObserver));
    };
    inSight(2);
    expect(screen.getByText('当前第 2 页，共 8 页')).toBeTruthy();
    expect(pageImage(3)).toBeNull();
    inSight(3);
    expect(pageImage(3)?.getAttribute('src')).toBe(`/view/page/${HASH}/3.gzip.svg?retry=1`);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the n / N counter on the page being read and jumps to a page typed in', async () => {
    renderApp('/library/7/42', { backend: backend({}, {}, true), user: member });
    // A screen reader hears the live region's words (the whole of them), the eye sees n / N.
    const counter = (await screen.findByText('当前第 1 页，共 8 页')).closest('[aria-live="polite"]')!;
    expect(counter.getAttribute('aria-atomic')).toBe('true');
    expect(counter.querySelector('[aria-hidden="true"]')?.textContent).toBe('1 / 8');
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));

    currentObserver()?.fire([5]);
    expect(counter.textContent).toBe('5 / 8当前第 5 页，共 8 页');

    const jump = screen.getByRole('spinbutton', { name: '跳转到页码' });
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    await userEvent.type(jump, '7');
    await userEvent.click(screen.getByRole('button', { name: '跳转' }));
    expect(screen.getByText('当前第 7 页，共 8 页')).toBeTruthy();
    expect((scrolled.mock.contexts.at(-1) as HTMLElement).dataset.page).toBe('7');

    await userEvent.type(jump, '12');
    await userEvent.click(screen.getByRole('button', { name: '跳转' }));
    expect(screen.getByRole('alert').textContent).toBe('页码应在 1 到 8 之间');
    await userEvent.clear(jump);
    await userEvent.click(screen.getByRole('button', { name: '跳转' }));
    expect(screen.getByRole('alert').textContent).toBe('请输入页码');
    // A page number typed with a fraction was typed: it is not a page, rather than missing.
    await userEvent.type(jump, '2.5');
    await userEvent.click(screen.getByRole('button', { name: '跳转' }));
    expect(screen.getByRole('alert').textContent).toBe('页码应为整数');
    expect(screen.getByText('当前第 7 页，共 8 页')).toBeTruthy();
  });

  it('opens the thumbnails on the page being read, not on the first ones', async () => {
    renderApp('/library/7/42', { backend: backend({}, {}, true), user: member });
    await screen.findByText('当前第 1 页，共 8 页');
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    currentObserver()?.fire([6]);
    // (an earlier test's spy may still be in place, with its calls)
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    scrolled.mockClear();
    await userEvent.click(screen.getByRole('button', { name: '缩略图' }));
    const panel = screen.getByRole('navigation', { name: '页面缩略图' });
    expect(within(panel).getByRole('button', { name: '跳到第 6 页' }).getAttribute('aria-current')).toBe('page');
    // A reader of every page is told of no closed ones.
    expect(within(panel).queryByText(/超出免费预览范围/)).toBeNull();
    expect(scrolled.mock.contexts.map((element) => (element as HTMLElement).getAttribute('aria-label'))).toEqual([
      '跳到第 6 页',
    ]);
  });

  it('zooms in and out by steps, back to fit-width, with the buttons and the keyboard', async () => {
    renderApp('/library/7/42', { backend: backend() });
    await screen.findByRole('img', { name: '第 1 页' });
    const pages = () => (document.querySelector('.app-reader__pages') as HTMLElement).style.width;
    // A status: a screen reader says the new size.
    const zoom = () => screen.getByRole('status', { name: '缩放比例' }).textContent;
    expect([pages(), zoom()]).toEqual(['100%', '100%']);

    await userEvent.click(screen.getByRole('button', { name: '放大' }));
    expect([pages(), zoom()]).toEqual(['125%', '125%']);
    fireEvent.keyDown(window, { key: '+' });
    expect(zoom()).toBe('150%');
    fireEvent.keyDown(window, { key: '-' });
    fireEvent.keyDown(window, { key: '-' });
    await userEvent.click(screen.getByRole('button', { name: '缩小' }));
    expect(zoom()).toBe('75%');
    screen.getByRole('button', { name: '缩小' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(zoom()).toBe('50%');
    expect(screen.getByRole('button', { name: '缩小' }).hasAttribute('disabled')).toBe(true);
    // Disabled under the keyboard, 缩小 gives the focus to 放大, not to <body>.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '放大' }));
    await userEvent.click(screen.getByRole('button', { name: '适合宽度' }));
    expect([pages(), zoom()]).toEqual(['100%', '100%']);
  });

  it('offers 全屏 only where the browser can show the reader in full screen (not an iPhone)', async () => {
    // happy-dom, as an iPhone's Safari, has no full screen for an element.
    expect(document.fullscreenEnabled).not.toBe(true);
    const first = renderApp('/library/7/42', { backend: backend() });
    await screen.findByRole('img', { name: '第 1 页' });
    expect(screen.getByRole('button', { name: '缩略图' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '全屏' })).toBeNull();
    first.unmount();

    Object.defineProperty(document, 'fullscreenEnabled', { value: true, configurable: true });
    try {
      renderApp('/library/7/42', { backend: backend() });
      await screen.findByRole('img', { name: '第 1 页' });
      expect(screen.getByRole('button', { name: '全屏' })).toBeTruthy();
    } finally {
      Reflect.deleteProperty(document, 'fullscreenEnabled');
    }
  });

  it('turns pages with the arrow keys, but not while typing in a field', async () => {
    renderApp('/library/7/42', { backend: backend({}, {}, true), user: member });
    await screen.findByText('当前第 1 页，共 8 页');
    // The label can be on screen before React has run the effect that listens to the keys (a
    // loaded machine delays it): let it run first.
    await act(async () => {});
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(screen.getByText('当前第 3 页，共 8 页')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(screen.getByText('当前第 2 页，共 8 页')).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('spinbutton', { name: '跳转到页码' }), { key: 'ArrowRight' });
    expect(screen.getByText('当前第 2 页，共 8 页')).toBeTruthy();
  });

  it('brings the end of the free preview into sight on → at the last free page', async () => {
    renderApp('/library/7/42', { backend: backend() });
    const end = await screen.findByRole('region', { name: '免费预览已结束' });
    await act(async () => {});
    currentObserver()?.fire([3]);
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    scrolled.mockClear();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(scrolled.mock.contexts).toEqual([end.parentElement]);
    expect(screen.getByText('当前第 3 页，共 8 页')).toBeTruthy();
  });

  it("ends a visitor's reading at the free preview: the pages left and the ways to read on", async () => {
    renderApp('/library/7/42', {
      backend: backend({}, {}, false),
      settings: { system: { sitename: '测试文库' }, vip: { enable: true, free_download: true, read_all_pages: true } },
    });
    expect(await screen.findByRole('heading', { name: '免费预览已结束' })).toBeTruthy();
    expect(screen.getAllByRole('figure')).toHaveLength(3);
    expect(screen.getByText(/剩余/).textContent).toBe('可预览页数已用完，剩余 5 页未读。');
    // Logging in opens nothing by itself: it is offered for what it leads to, the download; it
    // comes back where the visitor stopped, the last free page (not the first).
    const end = screen.getByRole('region', { name: '免费预览已结束' });
    expect(within(end).queryByText(/继续阅读/)).toBeNull();
    expect(within(end).getByRole('link', { name: '登录后下载全文' }).getAttribute('href')).toBe(
      `/auth/login?redirect=${encodeURIComponent('/library/7/42?page=3')}`,
    );
    expect(within(end).getByRole('link', { name: '开通 VIP 阅读全文' }).getAttribute('href')).toBe('/vip');
    expect(within(end).queryByRole('button')).toBeNull();
  });

  it('says under the thumbnails of a free preview which pages it leaves out, and how to read them', async () => {
    renderApp('/library/7/42', {
      backend: backend({}, {}, false),
      settings: { system: { sitename: '测试文库' }, vip: { enable: true, free_download: true, read_all_pages: true } },
    });
    expect(await screen.findByRole('heading', { name: '免费预览已结束' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '缩略图' }));
    const panel = screen.getByRole('navigation', { name: '页面缩略图' });
    expect(within(panel).getAllByRole('button', { name: /跳到第/ })).toHaveLength(3);
    expect(within(panel).getByText('第 4 至 8 页超出免费预览范围，下载文档或开通 VIP 后可阅读')).toBeTruthy();
  });

  it("brings a visitor who opened a page of the document (a search hit's link) back to that page from every 登录", async () => {
    const opened = '/library/7/42?page=2&wd=%E5%9B%BE%E4%B9%A6%E9%A6%86';
    renderApp(opened, { backend: backend() });
    const back = `/auth/login?redirect=${encodeURIComponent(opened)}`;
    for (const name of ['登录后评分', '登录后收藏或举报'])
      expect((await screen.findByRole('link', { name })).getAttribute('href'), name).toBe(back);
    // The header's, and the comments' once their code came.
    for (const link of screen.getAllByRole('link', { name: '登录' })) expect(link.getAttribute('href')).toBe(back);
  });

  it('keeps the page and the words a link asked for when it moves the document to its own category', async () => {
    // An old link (the document filed elsewhere since a search engine read it) to its second page.
    const { router } = renderApp('/library/9/42?page=2&wd=%E5%9B%BE%E4%B9%A6%E9%A6%86', { backend: backend() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/library/7/42'));
    expect(router.state.location.search).toBe('?page=2&wd=%E5%9B%BE%E4%B9%A6%E9%A6%86');
    // Not a move of the reader's: the window stays at the page the reader opened at.
    expect(router.state.preventScrollReset).toBe(true);
  });

  it('offers VIP at the end of the preview only while it is on sale and lets VIP members read every page', async () => {
    for (const vip of [
      { enable: false, read_all_pages: true },
      { enable: true, read_all_pages: false },
    ]) {
      const view = renderApp('/library/7/42', {
        backend: backend(),
        settings: { system: { sitename: '测试文库' }, vip },
      });
      const end = await screen.findByRole('region', { name: '免费预览已结束' });
      expect(within(end).queryByRole('link', { name: /VIP/ })).toBeNull();
      expect(within(end).getByRole('link', { name: '登录后下载全文' })).toBeTruthy();
      view.unmount();
    }
  });

  it('offers a member at the end of the preview the download at its price, and VIP; after buying it every page opens', async () => {
    vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    let bought = false;
    renderApp('/library/7/42', {
      user: { id: 5, username: 'bob' },
      settings: { system: { sitename: '测试文库' }, vip: { enable: true, free_download: true, read_all_pages: true } },
      backend: backend(
        {},
        {
          [`HEAD /view/page/${HASH}/4.gzip.svg`]: () =>
            bought ? { status: 200 } : { status: 403, body: { code: 403, message: '该页超出免费预览范围' } },
          'GET /api/v1/document/download': () => {
            bought = true;
            return { status: 200, body: { url: '/download/abc?document_id=42' } };
          },
        },
      ),
    });
    const end = await screen.findByRole('region', { name: '免费预览已结束' });
    expect(within(end).queryByRole('link', { name: /登录/ })).toBeNull();
    expect(within(end).getByRole('link', { name: '开通 VIP 阅读全文' }).getAttribute('href')).toBe('/vip');
    expect(within(end).getAllByText('VIP 免费')).toHaveLength(1);
    await userEvent.click(within(end).getByRole('button', { name: '下载全文（5 魔豆）' }));
    await userEvent.click(within(end).getByRole('button', { name: '确定下载' }));
    expect(await screen.findByText('— 全文完 —')).toBeTruthy();
    expect(screen.getAllByRole('figure')).toHaveLength(8);
  });

  it('pays no more than the price it showed: a price raised since is said, and the button then asks the new one', async () => {
    vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    let raised = false;
    const asked: URLSearchParams[] = [];
    renderApp('/library/7/42', {
      user: { id: 5, username: 'bob', credit_count: 100 },
      backend: backend(
        {},
        {
          'GET /api/v1/document': () => ({ status: 200, body: { ...doc, price: raised ? 30 : 5 } }),
          'GET /api/v1/document/download': (url) => {
            asked.push(url.searchParams);
            raised = true;
            return url.searchParams.get('price') === '30'
              ? { status: 200, body: { url: '/download/abc?document_id=42' } }
              : { status: 400, body: { code: 9, message: '该文档的下载价格现为 30 魔豆，请确认后再下载' } };
          },
        },
      ),
    });
    const end = await screen.findByRole('region', { name: '免费预览已结束' });
    await userEvent.click(within(end).getByRole('button', { name: '下载全文（5 魔豆）' }));
    await userEvent.click(within(end).getByRole('button', { name: '确定下载' }));
    expect(await within(end).findByText('该文档的下载价格现为 30 魔豆，请确认后再下载')).toBeTruthy();
    expect([asked[0]?.get('price'), asked[0]?.get('check_price')]).toEqual(['5', 'true']);
    await userEvent.click(await within(end).findByRole('button', { name: '下载全文（30 魔豆）' }));
    expect(within(end).getByText('需 30 魔豆，确定下载？')).toBeTruthy();
    await userEvent.click(within(end).getByRole('button', { name: '确定下载' }));
    await waitFor(() => expect(window.location.assign).toHaveBeenCalledWith('/download/abc?document_id=42'));
  });

  it('says VIP 免费下载全文 at the end of the preview to a VIP member where VIP downloads are free, and offers no VIP', async () => {
    renderApp('/library/7/42', {
      user: { id: 5, username: 'bob', is_vip: true },
      settings: { system: { sitename: '测试文库' }, vip: { enable: true, free_download: true, read_all_pages: false } },
      backend: backend(),
    });
    const end = await screen.findByRole('region', { name: '免费预览已结束' });
    expect(within(end).getByRole('button', { name: 'VIP 免费下载全文' })).toBeTruthy();
    expect(within(end).queryByRole('link')).toBeNull();
    expect(within(end).queryByText('VIP 免费')).toBeNull();
  });

  it('lets an entitled reader read every page (the server answers the first page past the preview)', async () => {
    renderApp('/library/7/42', { backend: backend({}, {}, true), user: member });
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    expect(screen.queryByRole('heading', { name: '免费预览已结束' })).toBeNull();
    expect(screen.getByText('— 全文完 —')).toBeTruthy();
  });

  it('learns from our backend whether a member may read past the preview without asking for a page it may refuse', async () => {
    for (const [readable, figures] of [
      [3, 3],
      [8, 8],
    ] as const) {
      const { fetchMock } = renderApp('/library/7/42', {
        user: member,
        // Our backend says the pages this member may read (decision 099); the page would answer as well.
        backend: backend({}, { 'GET /api/v1/document': { status: 200, body: { ...doc, readable_pages: readable } } }),
      });
      if (figures === 3) expect(await screen.findByRole('heading', { name: '免费预览已结束' })).toBeTruthy();
      else expect(await screen.findByText('— 全文完 —')).toBeTruthy();
      expect(screen.getAllByRole('figure')).toHaveLength(figures);
      expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'HEAD')).toEqual([]);
      cleanup();
    }
  });

  it('does not ask whether a visitor may read past the preview (the server would refuse: an error in the console)', async () => {
    const { fetchMock } = renderApp('/library/7/42', { backend: backend({}, {}, true) });
    expect(await screen.findByRole('heading', { name: '免费预览已结束' })).toBeTruthy();
    expect(screen.getAllByRole('figure')).toHaveLength(3);
    const heads = fetchMock.mock.calls.filter(([, init]) => init?.method === 'HEAD');
    expect(heads).toEqual([]);
  });

  it('says when it cannot ask whether a member may read past the preview, shows the free pages and asks again', async () => {
    // The first answer: no network at all; the second a refusal (the member may not read on).
    let answers = 0;
    renderApp('/library/7/42', {
      user: member,
      backend: backend(
        {},
        {
          [`HEAD /view/page/${HASH}/4.gzip.svg`]: () => {
            answers += 1;
            if (answers === 1) throw new TypeError('Failed to fetch');
            return { status: 403, body: { code: 403, message: '该页超出免费预览范围' } };
          },
        },
      ),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('第 4 页起暂时无法显示：未能确认您能否阅读免费预览之后的页面，请稍后再试。');
    expect(screen.getAllByRole('figure')).toHaveLength(3);
    // Not told that the preview is over, nor offered to pay for what may be theirs.
    expect(screen.queryByRole('heading', { name: '免费预览已结束' })).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByRole('heading', { name: '免费预览已结束' })).toBeTruthy();
    expect(screen.queryByText(/暂时无法显示/)).toBeNull();
    expect(answers).toBe(2);
  });

  it("shows a converting document's progress, then its pages once the backend says it is done, in place", async () => {
    fakePolling();
    let status = 1;
    const { fetchMock } = renderApp('/library/7/42', {
      backend: {
        ...backend(),
        'GET /api/v1/document': () => ({
          status: 200,
          body: status === 1 ? { ...doc, status: 1, pages: 0, convert_progress: { done: 3, total: 12 } } : doc,
        }),
      },
    });
    expect(await screen.findByText('文档正在转换中')).toBeTruthy();
    expect(screen.getByText('已转换 3 / 12 页（25%）')).toBeTruthy();
    expect((screen.getByRole('progressbar', { name: '转换进度' }) as HTMLProgressElement).value).toBe(25);
    const heading = screen.getByRole('heading', { level: 1, name: '城市图书馆的一天' });
    status = 2;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await screen.findByRole('img', { name: '第 1 页' })).toBeTruthy();
    expect(screen.queryByText('文档正在转换中')).toBeNull();
    // The same screen took the pages: not loaded again, and the view counted once.
    expect(heading.isConnected).toBe(true);
    expect(documentReads(fetchMock).filter((url) => url.searchParams.has('with_author'))).toHaveLength(1);
    // Converted: nothing is asked any more.
    const asked = documentReads(fetchMock).length;
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(documentReads(fetchMock)).toHaveLength(asked);
  });

  it('asks less and less often while the conversion lasts, and not while the tab is hidden', async () => {
    fakePolling();
    const { fetchMock } = renderApp('/library/7/42', { backend: backend({ status: 0, pages: 0 }) });
    expect(await screen.findByText('文档等待转换')).toBeTruthy();
    const polls = () => documentReads(fetchMock).filter((url) => !url.searchParams.has('with_author')).length;
    await expectConversionPolling(polls);
    expect(screen.getByText('文档等待转换')).toBeTruthy();
  });

  it('shows why a conversion failed once the backend says so, and stops asking', async () => {
    fakePolling();
    let failed = false;
    const { fetchMock } = renderApp('/library/7/42', {
      backend: {
        ...backend(),
        'GET /api/v1/document': () => ({
          status: 200,
          body: { ...doc, pages: 0, ...(failed ? { status: 3, convert_error: '文件已损坏' } : { status: 1 }) },
        }),
      },
    });
    expect(await screen.findByText('文档正在转换中')).toBeTruthy();
    failed = true;
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await screen.findByText('文档转换失败')).toBeTruthy();
    expect(screen.getByText('原因：文件已损坏')).toBeTruthy();
    expect(screen.queryByText('文档正在转换中')).toBeNull();
    const asked = documentReads(fetchMock).length;
    await nextPoll(CONVERSION_POLL.maxMs * 3);
    expect(documentReads(fetchMock)).toHaveLength(asked);
  });

  it('shows the uploader the pages of a document in review once it is converted, or why it failed', async () => {
    fakePolling();
    let state: Partial<Document> = { status: 6, pages: 0, user_id: member.id };
    const converted = renderApp('/library/7/42', {
      user: member,
      backend: { ...backend(), 'GET /api/v1/document': () => ({ status: 200, body: { ...doc, ...state } }) },
    });
    expect(await screen.findByText('文档正在审核中')).toBeTruthy();
    state = { status: 6, pages: 8, user_id: member.id };
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await screen.findByRole('img', { name: '第 1 页' })).toBeTruthy();
    expect(screen.getByText('文档正在审核中，目前仅上传者和管理员可以阅读，审核通过后公开。')).toBeTruthy();
    converted.unmount();

    state = { status: 6, pages: 0, user_id: member.id };
    renderApp('/library/7/42', {
      user: member,
      backend: { ...backend(), 'GET /api/v1/document': () => ({ status: 200, body: { ...doc, ...state } }) },
    });
    expect(await screen.findByText('文档正在审核中')).toBeTruthy();
    state = { status: 6, pages: 0, user_id: member.id, convert_error: '文档已加密，无法转换' };
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await screen.findByText('原因：文档已加密，无法转换')).toBeTruthy();
    expect(screen.queryByText('文档正在审核中')).toBeNull();
  });

  it('shows the uploader how far the conversion of a document in review is, until its pages are there', async () => {
    fakePolling();
    let state: Partial<Document> = {
      status: 6,
      pages: 0,
      user_id: member.id,
      convert_progress: { done: 3, total: 12 },
    };
    renderApp('/library/7/42', {
      user: member,
      backend: { ...backend(), 'GET /api/v1/document': () => ({ status: 200, body: { ...doc, ...state } }) },
    });
    expect(await screen.findByText('文档正在审核中')).toBeTruthy();
    expect(await screen.findByText('已转换 3 / 12 页（25%）')).toBeTruthy();
    expect((screen.getByRole('progressbar', { name: '转换进度' }) as HTMLProgressElement).value).toBe(25);
    state = { status: 6, pages: 12, user_id: member.id };
    await nextPoll(CONVERSION_POLL.firstMs);
    expect(await screen.findByRole('img', { name: '第 1 页' })).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: '转换进度' })).toBeNull();
  });

  it('says when a conversion failed, or the document waits for review', async () => {
    const failed = renderApp('/library/7/42', {
      backend: backend({ status: 3, pages: 0, convert_error: '文件已损坏' }),
    });
    expect(await screen.findByText('文档转换失败')).toBeTruthy();
    expect(screen.getByText('原因：文件已损坏')).toBeTruthy();
    failed.unmount();
    renderApp('/library/7/42', { backend: backend({ status: 6, pages: 0 }) });
    expect(await screen.findByText('文档正在审核中')).toBeTruthy();
  });

  it('offers on a document that could not be converted no rating and no comments, and says it was not converted', async () => {
    const failed = renderApp('/library/7/42', {
      user: member,
      backend: backend({ status: 3, pages: 0, convert_error: '文件已损坏', score_count: 2, score: 400 }),
    });
    expect(await screen.findByText('文档转换失败')).toBeTruthy();
    expect(screen.getByText('原因：文件已损坏')).toBeTruthy();
    expect(screen.queryByRole('group', { name: '给文档评分' })).toBeNull();
    expect(screen.queryByText('（2 人评分）')).toBeNull();
    expect(screen.queryByRole('region', { name: /评论/ })).toBeNull();
    // Its file is still there: the download stays offered, and so do 收藏, 举报 and 分享.
    expect(screen.getByRole('heading', { name: '下载文档' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '举报' })).toBeTruthy();
    failed.unmount();
    // Converted into no page at all (no error given): said so, as a failure, not 请稍后再试.
    renderApp('/library/7/42', { user: member, backend: backend({ status: 2, pages: 0 }) });
    expect(await screen.findByText('文档转换失败')).toBeTruthy();
    expect(screen.getByText('原因：转换后没有得到任何页面')).toBeTruthy();
    expect(screen.queryByText('请稍后再试。')).toBeNull();
    expect(screen.queryByRole('group', { name: '给文档评分' })).toBeNull();
    expect(screen.queryByRole('region', { name: /评论/ })).toBeNull();
  });

  it('tells the uploader of a document in review that its conversion failed, why, and what to do', async () => {
    const failed = renderApp('/library/7/42', {
      user: member,
      backend: backend({ status: 6, pages: 0, user_id: member.id, convert_error: '文档已加密，无法转换' }),
    });
    expect(await screen.findByText('文档转换失败')).toBeTruthy();
    expect(screen.queryByText('文档正在审核中')).toBeNull();
    expect(screen.getByText('原因：文档已加密，无法转换')).toBeTruthy();
    expect(screen.getByText(/请删除该文档，检查文件/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '前往我的文档' }).getAttribute('href')).toBe('/member/document');
    failed.unmount();
    // The reviewer reads the same, and that an approval converts it again.
    renderApp('/library/7/42', {
      user: admin,
      backend: backend({ status: 6, pages: 0, user_id: member.id, convert_error: '文档已加密，无法转换' }),
    });
    expect(await screen.findByText('原因：文档已加密，无法转换')).toBeTruthy();
    expect(screen.getByText('审核通过时将重新转换。')).toBeTruthy();
  });

  it('shows a reviewer the pages of a document in review, saying who else may read it', async () => {
    const { fetchMock } = renderApp('/library/7/42', { user: admin, backend: backend({ status: 6, pages: 3 }) });
    expect(await screen.findByText('文档正在审核中，目前仅上传者和管理员可以阅读，审核通过后公开。')).toBeTruthy();
    expect(await screen.findByRole('img', { name: '第 1 页' })).toBeTruthy();
    // The server answers 404 for the related documents of a document not yet public: not asked.
    expect(screen.queryByRole('heading', { name: '相关文档' })).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/v1/document/related'))).toBe(false);
  });

  it('tells the uploader that a document of theirs is in the recycle bin, with no download, comments or related list', async () => {
    const { fetchMock } = renderApp('/library/7/42', {
      user: member,
      backend: backend({ status: 2, pages: 3, user_id: member.id, deleted_at: '2026-11-21T08:00:00Z' }),
    });
    expect(await screen.findByText('文档已删除，在回收站中，仅上传者和管理员可以查看。')).toBeTruthy();
    expect(await screen.findByRole('img', { name: '第 1 页' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: '下载文档' })).toBeNull();
    expect(screen.queryByRole('button', { name: /下载/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: '相关文档' })).toBeNull();
    const asked = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost').pathname);
    expect(asked).not.toContain('/api/v1/document/related');
    expect(asked).not.toContain('/api/v1/comment/list');
  });

  it('says a document does not exist when the server answers 404', async () => {
    renderApp('/library/7/99', {
      backend: { 'GET /api/v1/document': { status: 404, body: { code: 5, message: '文档不存在' } } },
    });
    expect(await screen.findByText('文档不存在')).toBeTruthy();
    expect(screen.getByRole('link', { name: '浏览其他文档' })).toBeTruthy();
  });

  it('names the download button after what it costs the reader, with one VIP 免费 mark where VIP members download for free', async () => {
    const vipSettings = { system: { sitename: '测试文库' }, vip: { enable: true, free_download: true } };
    const panel = async () => screen.findByRole('region', { name: '下载文档' });
    // (the button's name is its text alone: its icon is decorative, no "download")
    // A visitor, a member: the price, marked once (on the price line) VIP 免费.
    const visitor = renderApp('/library/7/42', { backend: backend(), settings: vipSettings });
    expect(within(await panel()).getByRole('button', { name: '下载（5 魔豆）' })).toBeTruthy();
    expect(within(await panel()).getAllByText('VIP 免费')).toHaveLength(1);
    expect(within(screen.getByRole('region', { name: '下载' })).getAllByText('VIP 免费')).toHaveLength(1);
    visitor.unmount();
    // A VIP member downloads it for free: no price on the button, nothing to buy.
    const vip = renderApp('/library/7/42', {
      backend: backend(),
      settings: vipSettings,
      user: { id: 5, username: 'bob', is_vip: true },
    });
    expect(within(await panel()).getByRole('button', { name: 'VIP 免费下载' })).toBeTruthy();
    expect(within(await panel()).getAllByText('VIP 免费')).toHaveLength(1);
    vip.unmount();
    // Where VIP downloads are not free, a VIP member pays like anybody.
    const paying = renderApp('/library/7/42', {
      backend: backend(),
      settings: { ...vipSettings, vip: { enable: true, free_download: false } },
      user: { id: 5, username: 'bob', is_vip: true },
    });
    expect(within(await panel()).getByRole('button', { name: '下载（5 魔豆）' })).toBeTruthy();
    paying.unmount();
    // The uploader downloads their own document for free.
    renderApp('/library/7/42', {
      backend: backend({ user_id: 5 }),
      settings: vipSettings,
      user: { id: 5, username: 'bob' },
    });
    expect(within(await panel()).getByRole('button', { name: '免费下载' })).toBeTruthy();
  });

  it('shows in the download bar what downloading costs this member: 已购买, 我的文档 or VIP 免费, no price that no longer applies', async () => {
    const vipSettings = { system: { sitename: '测试文库' }, vip: { enable: true, free_download: true } };
    const bar = () => within(screen.getByRole('region', { name: '下载' }));
    const seen = async (fact: string) => {
      await waitFor(() => expect(bar().getByText(fact)).toBeTruthy());
      expect(bar().queryByText(/魔豆/)).toBeNull();
      expect(bar().getByRole('button', { name: '下载' })).toBeTruthy();
    };
    const bought = renderApp('/library/7/42', {
      user: { id: 5, username: 'bob' },
      settings: vipSettings,
      backend: backend({}, { 'GET /api/v1/document/purchase': { status: 200, body: { bought: true } } }),
    });
    await seen('已购买');
    expect(bar().queryByText('VIP 免费')).toBeNull();
    bought.unmount();
    const own = renderApp('/library/7/42', {
      user: { id: 5, username: 'bob' },
      settings: vipSettings,
      backend: backend({ user_id: 5 }),
    });
    await seen('我的文档');
    own.unmount();
    renderApp('/library/7/42', {
      user: { id: 5, username: 'bob', is_vip: true },
      settings: vipSettings,
      backend: backend(),
    });
    await seen('VIP 免费');
  });

  it('favourites once on a double tap of 收藏, even before the first answers (no 您已经收藏过了)', async () => {
    let favorite: { id?: number } = {};
    const { fetchMock } = renderApp('/library/7/42', {
      user: member,
      backend: backend(
        {},
        {
          'GET /api/v1/favorite': () => ({ status: 200, body: favorite }),
          'POST /api/v1/favorite': () => {
            if (favorite.id) return { status: 409, body: { code: 6, message: '您已经收藏过了' } };
            favorite = { id: 9 };
            return { status: 200, body: { id: 9, document_id: 42 } };
          },
        },
      ),
    });
    // Tapped once the member's favourite state is known (the button is busy until then).
    await waitFor(() => expect(screen.getByRole('button', { name: '收藏' }).className).not.toContain('loading'));
    const release = holdCalls(fetchMock, (url) => url.pathname === '/api/v1/favorite');
    await userEvent.setup({ delay: null }).dblClick(screen.getByRole('button', { name: '收藏' }));
    release();
    expect(await screen.findByRole('button', { name: '已收藏' })).toBeTruthy();
    await waitFor(() => expect(toasts.value.map((t) => t.title)).toEqual(['收藏成功']));
    const posts = fetchMock.mock.calls.filter(
      ([url, init]) =>
        init?.method === 'POST' && new URL(String(url), 'http://localhost').pathname === '/api/v1/favorite',
    );
    expect(posts).toHaveLength(1);
  });

  it('downloads once on a double click of 免费下载, even before the first download answers', async () => {
    vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { fetchMock } = renderApp('/library/7/42', {
      user: member,
      backend: backend(
        { price: 0 },
        { 'GET /api/v1/document/download': { status: 200, body: { url: '/download/abc' } } },
      ),
    });
    const panel = await screen.findByRole('region', { name: '下载文档' });
    const release = holdCalls(fetchMock, (url) => url.pathname === '/api/v1/document/download');
    await userEvent.setup({ delay: null }).dblClick(within(panel).getByRole('button', { name: '免费下载' }));
    release();
    await waitFor(() => expect(window.location.assign).toHaveBeenCalledWith('/download/abc'));
    const downloads = fetchMock.mock.calls.filter(
      ([url]) => new URL(String(url), 'http://localhost').pathname === '/api/v1/document/download',
    );
    expect(downloads).toHaveLength(1);
  });

  it("sends a visitor whose 下载 needs an account to the login page, from where the browser's back returns to the document", async () => {
    const { router } = renderApp('/library/7/42', {
      backend: backend(
        {},
        {
          'GET /api/v1/document/download': {
            status: 401,
            body: { code: 16, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' },
          },
        },
      ),
    });
    const panel = await screen.findByRole('region', { name: '下载文档' });
    await userEvent.click(within(panel).getByRole('button', { name: '下载（5 魔豆）' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?redirect=%2Flibrary%2F7%2F42');
    // The login page says what the login is for.
    expect(await screen.findByText('登录后即可下载该文档')).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/library/7/42');
    expect(await screen.findByRole('region', { name: '下载文档' })).toBeTruthy();
  });

  it('tells a visitor sent to the login page by 登录后评分, 登录后收藏或举报, 登录后下载全文 or the comments’ 登录 what the login is for, and no one else', async () => {
    const { router } = renderApp('/library/7/42', { backend: backend() });
    const reasons: [string, string][] = [
      ['登录后评分', '登录后即可为该文档评分'],
      ['登录后收藏或举报', '登录后即可收藏或举报该文档'],
      ['登录后下载全文', '登录后即可下载该文档'],
    ];
    for (const [link, reason] of reasons) {
      await userEvent.click(await screen.findByRole('link', { name: link }));
      expect(await screen.findByText(reason)).toBeTruthy();
      expect(router.state.location.pathname).toBe('/auth/login');
      await act(() => router.navigate(-1));
    }
    // The comments' 登录 too (their code arrives apart), as under an article.
    const comments = await screen.findByRole('region', { name: /评论/ });
    await userEvent.click(await within(comments).findByRole('link', { name: '登录' }));
    expect(await screen.findByText('登录后即可发表评论')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
    await act(() => router.navigate(-1));
    // Reached otherwise (a link of its own, a reason not of the list), the login page says none.
    await act(() =>
      router.navigate('/auth/login?redirect=%2Flibrary%2F7%2F42', { state: { loginReason: 'toString' } }),
    );
    expect(await screen.findByRole('heading', { name: '登录' })).toBeTruthy();
    expect(screen.queryByText(/登录后即可/)).toBeNull();
  });

  it('spends credits only once the member confirms the price, downloads through the signed link, and says in Chinese why a download is refused', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    let refuse = true;
    const { fetchMock } = renderApp('/library/7/42', {
      user: member,
      backend: backend(
        {},
        {
          'GET /api/v1/document/download': () =>
            refuse
              ? { status: 403, body: { code: 7, message: '魔豆不足，无法下载' } }
              : { status: 200, body: { url: '/download/abc?document_id=42' } },
        },
      ),
    });
    const panel = await screen.findByRole('region', { name: '下载文档' });
    const downloads = () =>
      fetchMock.mock.calls.filter(
        ([url]) => new URL(String(url), 'http://localhost').pathname === '/api/v1/document/download',
      ).length;
    // The first click asks; 取消 spends nothing.
    await userEvent.click(within(panel).getByRole('button', { name: /下载（5 魔豆）/ }));
    const asked = within(panel).getByRole('group', { name: '需 5 魔豆，确定下载？' });
    expect(within(asked).getByText('需 5 魔豆，确定下载？')).toBeTruthy();
    await userEvent.click(within(asked).getByRole('button', { name: '取消' }));
    expect(downloads()).toBe(0);
    await userEvent.click(within(panel).getByRole('button', { name: /下载（5 魔豆）/ }));
    await userEvent.click(within(panel).getByRole('button', { name: '确定下载' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe('魔豆不足，无法下载');
    expect(downloads()).toBe(1);
    refuse = false;
    await userEvent.click(within(panel).getByRole('button', { name: /下载（5 魔豆）/ }));
    await userEvent.click(within(panel).getByRole('button', { name: '确定下载' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/download/abc?document_id=42'));
  });

  describe('a member short of credits', () => {
    const credits = {
      system: { sitename: '测试文库', credit_name: '魔豆' },
      vip: { enable: true, free_download: true },
    };
    const downloadCalls = (fetchMock: ReturnType<typeof renderApp>['fetchMock']) =>
      fetchMock.mock.calls.filter(
        ([url]) => new URL(String(url), 'http://localhost').pathname === '/api/v1/document/download',
      ).length;

    it('is told the price, their credits, the shortfall and where credits are earned, with nothing to confirm', async () => {
      const { fetchMock } = renderApp('/library/7/42', {
        user: { ...member, credit_count: 2 },
        settings: credits,
        backend: backend(
          {},
          {
            'GET /api/v1/user': { status: 200, body: { ...member, credit_count: 2 } },
            'GET /api/v1/document/download': { status: 403, body: { code: 7, message: '魔豆不足，无法下载' } },
          },
        ),
      });
      const panel = await screen.findByRole('region', { name: '下载文档' });
      await userEvent.click(within(panel).getByRole('button', { name: '下载（5 魔豆）' }));
      const short = await within(panel).findByRole('group', { name: '魔豆不足' });
      expect(short.textContent).toBe(
        '下载需 5 魔豆，您现有 2 魔豆，还差 3 魔豆。可在个人中心每日签到，或上传文档获得魔豆。开通 VIP，免费下载知道了',
      );
      expect(within(short).getByRole('link', { name: '个人中心' }).getAttribute('href')).toBe('/member');
      expect(within(short).getByRole('link', { name: '上传文档' }).getAttribute('href')).toBe('/upload');
      // VIP members download for free here: the way past the credits.
      expect(within(short).getByRole('link', { name: '开通 VIP，免费下载' }).getAttribute('href')).toBe('/vip');
      expect(screen.queryByRole('button', { name: '确定下载' })).toBeNull();
      expect(screen.queryByText(/确定下载？/)).toBeNull();
      expect(downloadCalls(fetchMock)).toBe(0);
      await userEvent.click(within(short).getByRole('button', { name: '知道了' }));
      expect(within(panel).queryByRole('group', { name: '魔豆不足' })).toBeNull();
    });

    it('is asked to confirm when the server counts enough credits since (the session had fewer)', async () => {
      renderApp('/library/7/42', {
        user: { ...member, credit_count: 2 },
        settings: credits,
        backend: backend({}, { 'GET /api/v1/user': { status: 200, body: { ...member, credit_count: 8 } } }),
      });
      const panel = await screen.findByRole('region', { name: '下载文档' });
      await userEvent.click(within(panel).getByRole('button', { name: '下载（5 魔豆）' }));
      expect(await within(panel).findByRole('group', { name: '需 5 魔豆，确定下载？' })).toBeTruthy();
      expect(screen.queryByRole('group', { name: '魔豆不足' })).toBeNull();
    });

    it('is told the shortfall on the next click once a download spent the credits', async () => {
      vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      let balance = 7;
      const { fetchMock } = renderApp('/library/7/42', {
        user: { ...member, credit_count: 7 },
        settings: credits,
        backend: backend(
          {},
          {
            'GET /api/v1/user': () => ({ status: 200, body: { ...member, credit_count: balance } }),
            'GET /api/v1/document/download': () => {
              balance -= 5;
              return { status: 200, body: { url: '/download/abc' } };
            },
          },
        ),
      });
      const panel = await screen.findByRole('region', { name: '下载文档' });
      await userEvent.click(within(panel).getByRole('button', { name: '下载（5 魔豆）' }));
      await userEvent.click(within(panel).getByRole('button', { name: '确定下载' }));
      await waitFor(() => expect(downloadCalls(fetchMock)).toBe(1));
      // The session learns the new balance from the server once the download is done.
      await waitFor(() => expect(session.value.user?.credit_count).toBe(2));
      await userEvent.click(within(panel).getByRole('button', { name: '下载（5 魔豆）' }));
      const short = await within(panel).findByRole('group', { name: '魔豆不足' });
      expect(short.textContent).toContain('您现有 2 魔豆，还差 3 魔豆。');
      expect(screen.queryByRole('button', { name: '确定下载' })).toBeNull();
      expect(downloadCalls(fetchMock)).toBe(1);
    });

    it('asks the price of a member whose VIP ended since the session read it, rather than spending it unasked', async () => {
      const { fetchMock } = renderApp('/library/7/42', {
        user: { ...member, credit_count: 20, is_vip: true },
        settings: credits,
        backend: backend(
          {},
          {
            'GET /api/v1/user': { status: 200, body: { ...member, credit_count: 20, is_vip: false } },
            'GET /api/v1/document/download': { status: 200, body: { url: '/download/abc' } },
          },
        ),
      });
      const panel = await screen.findByRole('region', { name: '下载文档' });
      await userEvent.click(within(panel).getByRole('button', { name: 'VIP 免费下载' }));
      expect(await within(panel).findByRole('group', { name: '需 5 魔豆，确定下载？' })).toBeTruthy();
      expect(downloadCalls(fetchMock)).toBe(0);
      expect(within(panel).queryByRole('button', { name: 'VIP 免费下载' })).toBeNull();
      // The header's mark follows the member the check read: no VIP 会员 left beside the price asked.
      expect(screen.getByRole('link', { name: '开通会员' })).toBeTruthy();
      expect(screen.queryByRole('link', { name: 'VIP 会员' })).toBeNull();
    });

    it('downloads for free as a VIP member where VIP downloads are free', async () => {
      vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
      const { fetchMock } = renderApp('/library/7/42', {
        user: { ...member, is_vip: true },
        settings: credits,
        backend: backend({}, { 'GET /api/v1/document/download': { status: 200, body: { url: '/download/abc' } } }),
      });
      const panel = await screen.findByRole('region', { name: '下载文档' });
      await userEvent.click(within(panel).getByRole('button', { name: 'VIP 免费下载' }));
      await waitFor(() => expect(downloadCalls(fetchMock)).toBe(1));
      expect(screen.queryByRole('group', { name: '魔豆不足' })).toBeNull();
    });
  });
});

/** The bodies of the reading positions the reader kept (`PUT /api/v1/document/reading`). */
const readingWrites = (fetchMock: ReturnType<typeof scriptedFetch>) =>
  fetchMock.mock.calls
    .filter(
      ([input, init]) =>
        (init as RequestInit | undefined)?.method === 'PUT' &&
        new URL(String(input), 'http://localhost').pathname === '/api/v1/document/reading',
    )
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as { document_id: number; page: number });

/**
 * The reader's wait before it keeps the page read (SETTLE_MS) on a clock the test moves on, not waited out: the
 * timers (setTimeout) fake, running with the real time too, so that every other wait flows (setup.ts gives the real
 * ones back after the test).
 */
function settleOnDemand(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
}

describe('where a member read (最近阅读, 继续阅读)', () => {
  const kept = (page?: number): Backend => ({
    'GET /api/v1/document/reading': { status: 200, body: page ? { document_id: 42, page } : {} },
    'PUT /api/v1/document/reading': { status: 200, body: {} },
  });

  it('keeps a document the member only opened, once, at its first page (a one-page document too)', async () => {
    const { fetchMock } = renderApp('/library/7/42', {
      backend: backend({ pages: 1, preview: 0 }, kept(), true),
      user: member,
    });
    await waitFor(() => expect(readingWrites(fetchMock)).toEqual([{ document_id: 42, page: 1 }]));
    expect(await screen.findByText('— 全文完 —')).toBeTruthy();
    expect(readingWrites(fetchMock)).toHaveLength(1);
  });

  it('keeps the place saved before on opening, so resuming there never loses it to page 1', async () => {
    settleOnDemand();
    const { fetchMock } = renderApp('/library/7/42', { backend: backend({}, kept(5), true), user: member });
    const resume = await screen.findByRole('button', { name: '继续阅读（第 5 页）' });
    await waitFor(() => expect(readingWrites(fetchMock)).toEqual([{ document_id: 42, page: 5 }]));
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    await userEvent.click(resume);
    expect(screen.getByText('当前第 5 页，共 8 页')).toBeTruthy();
    // The page read is kept once the reader has stayed on it a moment.
    await act(() => vi.advanceTimersByTimeAsync(SETTLE_MS));
    await waitFor(() => expect(readingWrites(fetchMock)).toHaveLength(2));
    expect(readingWrites(fetchMock).map((write) => write.page)).toEqual([5, 5]);
  });

  it('leaves the keyboard in the reader once 继续阅读 or 不用了 is answered, where ← and → turn the pages', async () => {
    const first = renderApp('/library/7/42', { backend: backend({}, kept(5), true), user: member });
    (await screen.findByRole('button', { name: '继续阅读（第 5 页）' })).focus();
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('button', { name: '继续阅读（第 5 页）' })).toBeNull();
    const reader = screen.getByRole('region', { name: '文档阅读器' });
    expect(document.activeElement).toBe(reader);
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByText('当前第 6 页，共 8 页')).toBeTruthy();
    first.unmount();

    renderApp('/library/7/42', { backend: backend({}, kept(5), true), user: member });
    (await screen.findByRole('button', { name: '不用了' })).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('button', { name: '不用了' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('region', { name: '文档阅读器' }));
  });

  it('offers no 继续阅读 on a return to the document: the reader is put back where they were', async () => {
    const { router } = renderApp('/library/7/42', { backend: backend({}, kept(5), true), user: member });
    await screen.findByRole('button', { name: '继续阅读（第 5 页）' });
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    await act(() => router.navigate('/library'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    expect(screen.queryByRole('button', { name: /继续阅读/ })).toBeNull();
    // Opened again by a link, it offers the place once more.
    await act(() => router.navigate('/library'));
    await act(() => router.navigate('/library/7/42'));
    expect(await screen.findByRole('button', { name: '继续阅读（第 5 页）' })).toBeTruthy();
  });

  it.each([
    ['a place kept for it: it is put back, with nothing to offer', { '/library/7/42': 1200 }, false],
    ['no place kept (the tab kept nothing): it opens at its top, with the offer', {}, true],
  ])('on a reload with %s', async (_, places, offered) => {
    // The browser reloaded the page; ScrollRestoration kept the places it had in the tab's storage.
    const navigation = vi
      .spyOn(performance, 'getEntriesByType')
      .mockImplementation((type: string) =>
        type === 'navigation' ? [{ type: 'reload' } as unknown as PerformanceEntry] : [],
      );
    onTestFinished(() => navigation.mockRestore());
    sessionStorage.setItem('react-router-scroll-positions', JSON.stringify(places));
    const { fetchMock } = renderApp('/library/7/42', { backend: backend({}, kept(5), true), user: member });
    await waitFor(() => expect(readingWrites(fetchMock)).toEqual([{ document_id: 42, page: 5 }]));
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    expect(screen.queryAllByRole('button', { name: '继续阅读（第 5 页）' })).toHaveLength(offered ? 1 : 0);
  });

  it.each([
    ['puts the place back once the pages past the preview come, though the page went past it meanwhile', false, 2400],
    ['leaves a reader who scrolled on their own meanwhile where they are', true, 3100],
  ])('on a reload past the free preview, %s', async (_, scrolledMeanwhile, landsAt) => {
    const navigation = vi
      .spyOn(performance, 'getEntriesByType')
      .mockImplementation((type: string) =>
        type === 'navigation' ? [{ type: 'reload' } as unknown as PerformanceEntry] : [],
      );
    sessionStorage.setItem('react-router-scroll-positions', JSON.stringify({ '/library/7/42': 2400 }));
    // The window's offset, moved by the app's scrollTo and by the test as the browser would.
    let offset = 0;
    Object.defineProperty(window, 'scrollY', { configurable: true, get: () => offset });
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, y: number) => {
      offset = y;
    }) as typeof window.scrollTo);
    onTestFinished(() => {
      navigation.mockRestore();
      scrollTo.mockRestore();
      Reflect.deleteProperty(window, 'scrollY');
      sessionStorage.clear();
    });
    const { fetchMock } = renderApp('/library/7/42', { backend: backend({}, kept(), true), user: member });
    // Whether this reader reads past the preview is answered late: the place is put back with the preview only.
    const release = holdCalls(fetchMock, (url, init) => init.method === 'HEAD');
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(3));
    await waitFor(() => expect(offset).toBe(2400));
    // The browser kept the comments under the preview in sight as the page above them grew: past the place.
    offset = 3100;
    if (scrolledMeanwhile) fireEvent.wheel(window);
    release();
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    expect(offset).toBe(landsAt);
  });

  it.each(['#comments', '#comment-5'])(
    'keeps no page a link to the comments (%s) scrolled to, only those the reader then moves to',
    async (hash) => {
      settleOnDemand();
      const { fetchMock } = renderApp(`/library/7/42${hash}`, { backend: backend({}, kept(), true), user: member });
      await waitFor(() => expect(readingWrites(fetchMock)).toEqual([{ document_id: 42, page: 1 }]));
      await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
      expect(await screen.findByRole('region', { name: /评论/ })).toBeTruthy();
      // The link's scroll to the comments brings the last page into view: not a page read.
      currentObserver()?.fire([8]);
      expect(screen.getByText('当前第 8 页，共 8 页')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(SETTLE_MS * 2));
      expect(readingWrites(fetchMock)).toHaveLength(1);
      // The reader scrolls back up on their own: the page they stay on is kept.
      fireEvent.wheel(window);
      currentObserver()?.fire([7]);
      await act(() => vi.advanceTimersByTimeAsync(SETTLE_MS));
      await waitFor(() => expect(readingWrites(fetchMock)).toHaveLength(2));
      expect(readingWrites(fetchMock).map((write) => write.page)).toEqual([1, 7]);
    },
  );

  it("keeps nothing of a visitor's opening on the server", async () => {
    const { fetchMock } = renderApp('/library/7/42', { backend: backend({}, kept()) });
    expect(await screen.findByRole('heading', { name: '免费预览已结束' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: '古籍修复室' })).toBeTruthy();
    expect(readingWrites(fetchMock)).toEqual([]);
  });
});

describe('find in this document', () => {
  const found = {
    'GET /api/v1/document/find': (url: URL) => ({
      status: 200,
      body: {
        total: 1,
        readable: 8,
        hit: [{ page: 2, text: `一座${url.searchParams.get('wd')}的日常`, start: 2, length: 2 }],
      },
    }),
  };
  const asked = (fetchMock: ReturnType<typeof renderApp>['fetchMock']) =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname === '/api/v1/document/find')
      .map((url) => url.searchParams.get('wd'));

  /** `GET /api/v1/document/find` answering `body` whatever the words. */
  const answering = (body: FindInDocumentReply): Backend => ({ 'GET /api/v1/document/find': { status: 200, body } });

  /**
   * Opens the reader and its find bar and types `words`, until they are the words looked for: a pause between two
   * keys past TYPING_PAUSE_MS (a loaded machine) lists the hits of the first letters meanwhile, and a hit chosen
   * from that list is one of those letters', whose list the whole words then open again.
   */
  async function findWords(words: string, finds: Backend) {
    const app = renderApp('/library/7/42', { backend: backend({}, finds) });
    await userEvent.click(await screen.findByRole('button', { name: '查找' }));
    await userEvent.type(screen.getByLabelText('查找文档中的文字'), words);
    await waitFor(() => expect(asked(app.fetchMock)).toContain(words));
    return app;
  }

  it('looks for the words once typing pauses, and never for pinyin still being composed', async () => {
    const { fetchMock } = renderApp('/library/7/42', { backend: backend({}, found) });
    await userEvent.click(await screen.findByRole('button', { name: '查找' }));
    const box = screen.getByLabelText('查找文档中的文字');
    fireEvent.compositionStart(box);
    fireEvent.change(box, { target: { value: 'cheng' } });
    fireEvent.change(box, { target: { value: 'chengshi' } });
    await new Promise((resolve) => setTimeout(resolve, TYPING_PAUSE_MS * 3));
    expect(asked(fetchMock)).toEqual([]);
    fireEvent.change(box, { target: { value: '城市' } });
    fireEvent.compositionEnd(box);
    expect(await screen.findByText('第 2 页')).toBeTruthy();
    expect(asked(fetchMock)).toEqual(['城市']);
  });

  it('says the count of hits in one live region there, empty, from the moment the bar opens: a cached answer too', async () => {
    renderApp('/library/7/42', { backend: backend({}, found) });
    await userEvent.click(await screen.findByRole('button', { name: '查找' }));
    const region = () => screen.getByRole('search', { name: '在文档中查找' }).querySelector('[aria-live="polite"]');
    const live = region();
    expect(live?.textContent).toBe('');
    const box = screen.getByLabelText('查找文档中的文字');
    await userEvent.type(box, '城市');
    await waitFor(() => expect(live?.textContent).toBe('共 1 处（已查找可阅读的 8 页）'));
    await userEvent.clear(box);
    await waitFor(() => expect(live?.textContent).toBe(''));
    // The words again: their answer is cached, and said in the region that was there already.
    await userEvent.type(box, '城市');
    await waitFor(() => expect(live?.textContent).toBe('共 1 处（已查找可阅读的 8 页）'));
    expect(region()).toBe(live);
  });

  it('opens with the words of a link on an empty live region, then says their count in it', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(findInDocumentQuery(42, '城市').queryKey, {
      total: 1,
      readable: 8,
      hit: [{ page: 2, text: '一座城市的日常', start: 2, length: 2 }],
    });
    const bar = (
      <QueryClientProvider client={queryClient}>
        <FindInDocument
          documentId={42}
          initialWords="城市"
          current={null}
          onChoose={() => {}}
          onWords={() => {}}
          onClose={() => {}}
        />
      </QueryClientProvider>
    );
    // Its first paint, before any effect: the region is there, and says nothing yet.
    const first = new DOMParser().parseFromString(renderToString(bar), 'text/html');
    expect(first.querySelector('[aria-live="polite"]')?.textContent).toBe('');
    render(bar);
    const region = screen.getByRole('search', { name: '在文档中查找' }).querySelector('[aria-live="polite"]');
    await waitFor(() => expect(region?.textContent).toBe('共 1 处（已查找可阅读的 8 页）'));
  });

  it('starts a hit far into a long line a few characters before its words, each hit of the line apart', async () => {
    const line =
      '他最近修复的是一部清代刻本，书中有一幅麒麟图。画中的麒麟身披鳞甲，脚踏祥云，神态安详。王老师说，古人把麒麟看作仁兽，';
    await findWords(
      '麒麟',
      answering({
        total: 3,
        readable: 8,
        hit: [19, 26, 51].map((start) => ({ page: 2, text: line, start, length: 2 })),
      }),
    );
    const hits = within(await screen.findByRole('list', { name: '查找结果' })).getAllByRole('button');
    expect(hits.map((hit) => hit.querySelector('mark')?.previousSibling?.textContent)).toEqual([
      '…，书中有一幅',
      '…麟图。画中的',
      '…师说，古人把',
    ]);
    for (const hit of hits) expect(hit.querySelector('mark')?.textContent).toBe('麒麟');
  });

  it('says which of the hits 下一处 and 上一处 show, as a browser finding words does', async () => {
    await findWords(
      '图书馆',
      answering({
        total: 3,
        readable: 8,
        hit: [1, 2, 3].map((page) => ({ page, text: '城市图书馆', start: 2, length: 3 })),
      }),
    );
    expect((await screen.findByText(/^共 3 处/)).textContent).toBe('共 3 处（已查找可阅读的 8 页）');
    const summary = () => screen.getByText(/共 3 处/).textContent;
    await userEvent.click(screen.getByRole('button', { name: '下一处' }));
    expect(summary()).toBe('第 1 处，共 3 处（已查找可阅读的 8 页）');
    await userEvent.click(screen.getByRole('button', { name: '下一处' }));
    expect(summary()).toBe('第 2 处，共 3 处（已查找可阅读的 8 页）');
    await userEvent.click(screen.getByRole('button', { name: '上一处' }));
    await userEvent.click(screen.getByRole('button', { name: '上一处' }));
    expect(summary()).toBe('第 3 处，共 3 处（已查找可阅读的 8 页）');
    await userEvent.click(within(screen.getByRole('list', { name: '查找结果' })).getAllByRole('button')[1]!);
    expect(summary()).toBe('第 2 处，共 3 处（已查找可阅读的 8 页）');
  });

  describe('the hit list once a hit is chosen from it', () => {
    const three = {
      'GET /api/v1/document/find': (url: URL) => ({
        status: 200,
        body: {
          total: 3,
          readable: 8,
          hit: [1, 2, 3].map((page) => ({ page, text: `城市${url.searchParams.get('wd')}`, start: 2, length: 3 })),
        },
      }),
    };
    const onPhone = (phone: boolean) => {
      const real = window.matchMedia.bind(window);
      vi.stubGlobal('matchMedia', (query: string) =>
        query === '(max-width: 600px)' ? { ...real(query), matches: phone, media: query } : real(query),
      );
    };
    const list = () => screen.queryByRole('list', { name: '查找结果' });

    it('folds on a phone, the words and 第 N 处 staying with 上一处 / 下一处, and opens again', async () => {
      onPhone(true);
      await findWords('图书馆', three);
      const box = screen.getByLabelText<HTMLInputElement>('查找文档中的文字');
      const summary = () => screen.getByText(/共 3 处/).textContent;
      await userEvent.click(within(await screen.findByRole('list', { name: '查找结果' })).getAllByRole('button')[1]!);
      expect(list()).toBeNull();
      expect(box.value).toBe('图书馆');
      expect(summary()).toBe('第 2 处，共 3 处（已查找可阅读的 8 页）');
      // The row chosen went with the list: the keyboard is on what opens it again, not on <body>.
      const reopen = screen.getByRole('button', { name: '查看查找结果' });
      expect(document.activeElement).toBe(reopen);
      expect(reopen.getAttribute('aria-expanded')).toBe('false');
      await userEvent.click(screen.getByRole('button', { name: '下一处' }));
      expect(summary()).toBe('第 3 处，共 3 处（已查找可阅读的 8 页）');
      expect(list()).toBeNull();

      await userEvent.click(screen.getByRole('button', { name: '查看查找结果' }));
      const rows = within(list()!).getAllByRole('button');
      expect(rows).toHaveLength(3);
      expect(document.activeElement).toBe(rows[2]);
      expect(screen.queryByRole('button', { name: '查看查找结果' })).toBeNull();

      // Folded again, other words list their hits at once.
      await userEvent.click(rows[0]!);
      expect(list()).toBeNull();
      await userEvent.type(box, '馆');
      await waitFor(() => expect(list()).not.toBeNull());
      expect(screen.queryByRole('button', { name: '查看查找结果' })).toBeNull();
    });

    it('stays open on a wide screen, the row chosen keeping the keyboard', async () => {
      onPhone(false);
      await findWords('图书馆', three);
      const row = within(await screen.findByRole('list', { name: '查找结果' })).getAllByRole('button')[1]!;
      await userEvent.click(row);
      expect(screen.getByText(/共 3 处/).textContent).toBe('第 2 处，共 3 处（已查找可阅读的 8 页）');
      expect(within(list()!).getAllByRole('button')).toHaveLength(3);
      expect(document.activeElement).toBe(row);
      expect(screen.queryByRole('button', { name: '查看查找结果' })).toBeNull();
    });
  });

  it('keeps the current hit in sight in the list as 下一处 and 上一处 move it, scrolling the list alone', async () => {
    await findWords(
      '图书馆',
      answering({
        total: 10,
        readable: 8,
        hit: [1, 1, 2, 2, 3, 3, 4, 4, 5, 5].map((page) => ({ page, text: '城市图书馆', start: 2, length: 3 })),
      }),
    );
    const list = await screen.findByRole('list', { name: '查找结果' });
    // happy-dom lays nothing out: the list shows 100 px from y = 500, its rows 40 px each,
    // moved up by as much as the list has scrolled.
    const rect = (top: number, height: number) => ({ top, bottom: top + height }) as DOMRect;
    list.getBoundingClientRect = () => rect(500, 100);
    within(list)
      .getAllByRole('button')
      .forEach((row, index) => {
        row.getBoundingClientRect = () => rect(500 + index * 40 - list.scrollTop, 40);
      });
    const next = screen.getByRole('button', { name: '下一处' });
    const previous = screen.getByRole('button', { name: '上一处' });
    await userEvent.click(next);
    await userEvent.click(next);
    expect(list.scrollTop).toBe(0);
    // The 3rd row (80 to 120 px down the list) ends below its bottom: the list scrolls by 20 px.
    await userEvent.click(next);
    expect(list.scrollTop).toBe(20);
    for (let i = 0; i < 4; i += 1) await userEvent.click(next);
    expect(screen.getByText(/^第 7 处/)).toBeTruthy();
    expect(list.scrollTop).toBe(180);
    // Back up to the 3rd: the list scrolls up to its top, and no further.
    for (let i = 0; i < 4; i += 1) await userEvent.click(previous);
    expect(list.scrollTop).toBe(80);
    // Round past the first to the last.
    await userEvent.click(previous);
    await userEvent.click(previous);
    await userEvent.click(previous);
    expect(screen.getByText(/^第 10 处/)).toBeTruthy();
    expect(list.scrollTop).toBe(300);
  });

  it('starts a hit of a Latin line at a word, not inside one', async () => {
    await findWords(
      'page',
      answering({ total: 1, readable: 8, hit: [{ page: 2, text: 'Line three of page 2.', start: 14, length: 4 }] }),
    );
    const hit = within(await screen.findByRole('list', { name: '查找结果' })).getByRole('button');
    expect(hit.querySelector('.app-find__line')?.textContent).toBe('…three of page 2.');
  });

  const vipSettings = {
    system: { sitename: '测试文库' },
    vip: { enable: true, free_download: true, read_all_pages: true },
  };
  const nowhere = {
    'GET /api/v1/document/find': { status: 200, body: { total: 0, readable: 3, hit: [] } },
  };

  it('says why a jump past the free preview stops at its last page, as a link there would', async () => {
    renderApp('/library/7/42', { backend: backend(), settings: vipSettings });
    await screen.findByRole('region', { name: '免费预览已结束' });
    await userEvent.type(screen.getByRole('spinbutton', { name: '跳转到页码' }), '6');
    await userEvent.click(screen.getByRole('button', { name: '跳转' }));
    expect(screen.getByRole('alert').textContent).toBe(
      '第 6 页超出免费预览范围，下载文档或开通 VIP 后可阅读（可阅读到第 3 页）',
    );
    expect(screen.getByText('当前第 3 页，共 8 页')).toBeTruthy();
  });

  it('tells a visitor sent to a page past the free preview (a site-search hit) so, at the preview end', async () => {
    // HTMLElement's, as the jump's test above spies on.
    const scrollIntoView = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    const scrolled = () => scrollIntoView.mock.contexts as HTMLElement[];
    try {
      renderApp('/library/7/42?page=6&wd=城市', { backend: backend({}, nowhere), settings: vipSettings });
      const end = await screen.findByRole('region', { name: '免费预览已结束' });
      const summary = await screen.findByText(/超出免费预览范围/);
      expect(summary.textContent).toBe('第 6 页超出免费预览范围，下载文档或开通 VIP 后可阅读');
      await waitFor(() => expect(scrolled().at(-1)?.contains(end)).toBe(true));
      // Logging in brings the visitor back to that page, not to the preview's last one.
      const login = within(end).getByRole('link', { name: '登录后下载全文' }).getAttribute('href') ?? '';
      const back = new URL(new URL(login, 'http://x').searchParams.get('redirect') ?? '', 'http://x');
      expect([back.pathname, back.searchParams.get('page'), back.searchParams.get('wd')]).toEqual([
        '/library/7/42',
        '6',
        '城市',
      ]);
      expect(screen.queryByText(/未找到/)).toBeNull();
      expect(screen.getByText('当前第 3 页，共 8 页')).toBeTruthy();
    } finally {
      scrollIntoView.mockRestore();
    }
  });

  it('keeps a member linked to a page past the preview at its end while the server cannot say whether it opens, then opens it', async () => {
    const scrollIntoView = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    const scrolled = () => scrollIntoView.mock.contexts as HTMLElement[];
    let failing = true;
    try {
      renderApp('/library/7/42?page=6&wd=城市', {
        user: member,
        settings: vipSettings,
        backend: backend(
          {},
          {
            ...found,
            [`HEAD /view/page/${HASH}/4.gzip.svg`]: () =>
              failing ? { status: 503, body: { code: 14, message: '服务暂时不可用' } } : { status: 200 },
          },
        ),
      });
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('暂时无法打开第 6 页：未能确认您能否阅读免费预览之后的页面，请稍后再试。');
      expect(within(alert).getByRole('button', { name: '重试' })).toBeTruthy();
      // The reader waits at the free pages' end, which says why, not at the top of page 1.
      await waitFor(() => expect(scrolled().at(-1)?.contains(alert)).toBe(true));
      expect(screen.getByText('当前第 3 页，共 8 页')).toBeTruthy();
      expect(screen.getAllByRole('figure')).toHaveLength(3);
      expect((await screen.findByText(/第 6 页暂时无法打开/)).textContent).toBe(
        '第 6 页暂时无法打开，请稍后再试；可阅读的页中共 1 处',
      );
      // Neither "beyond the free preview, buy it" (it may be theirs) nor "未找到".
      expect(screen.queryByText(/超出免费预览范围/)).toBeNull();
      expect(screen.queryByRole('heading', { name: '免费预览已结束' })).toBeNull();
      expect(screen.queryByText(/未找到/)).toBeNull();

      failing = false;
      await userEvent.click(within(alert).getByRole('button', { name: '重试' }));
      await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
      expect(await screen.findByText('当前第 6 页，共 8 页')).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      scrollIntoView.mockRestore();
    }
  });

  it('opens an entitled reader at the page past the preview a link names, as any other', async () => {
    renderApp('/library/7/42?page=6&wd=城市', {
      backend: backend({}, found, true),
      user: member,
      settings: vipSettings,
    });
    await waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(8));
    expect(await screen.findByText('当前第 6 页，共 8 页')).toBeTruthy();
    expect(await screen.findByText(/^共 1 处/)).toBeTruthy();
    expect(screen.queryByText(/超出免费预览范围/)).toBeNull();
  });
});

describe('the reader by keyboard', () => {
  // One member's reader for the ways the form opens and closes, each closing giving the keyboard back to 举报.
  it('opens the 举报 form from 举报, keeping the keyboard there; Tab goes into it, and 取消 or Escape (on 举报 or in the form) close it, the focus back on 举报 instead of dropped on the page', async () => {
    renderApp('/library/7/42', {
      backend: backend({}, { 'GET /api/v1/favorite': { status: 200, body: {} } }, true),
      user: member,
    });
    const report = await screen.findByRole('button', { name: '举报' });
    const reportForm = () => screen.queryByRole('form', { name: '举报文档' });
    const closedOnReport = () => {
      expect(reportForm()).toBeNull();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: '举报' }));
    };
    // Escape pressed on 举报, which keeps the keyboard once it opens the form.
    report.focus();
    await userEvent.keyboard('{Enter}');
    let form = await screen.findByRole('form', { name: '举报文档' });
    expect(report.getAttribute('aria-controls')).toBe(form.id);
    expect(document.activeElement).toBe(report);
    await userEvent.keyboard('{Escape}');
    closedOnReport();

    // Tab from 举报 into the form it opened, with no other button between them; then 取消.
    await userEvent.keyboard('{Enter}');
    form = await screen.findByRole('form', { name: '举报文档' });
    await userEvent.tab();
    expect(form.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(within(form).getByRole('radio', { name: '垃圾广告' }));
    within(form).getByRole('button', { name: '取消' }).focus();
    await userEvent.keyboard('{Enter}');
    closedOnReport();

    // Escape in the form, as 取消 does.
    await userEvent.click(report);
    form = await screen.findByRole('form', { name: '举报文档' });
    await userEvent.click(within(form).getByRole('radio', { name: '垃圾广告' }));
    await userEvent.keyboard('{Escape}');
    closedOnReport();
  });

  it("takes the keyboard to what the 举报 form's checks refuse, the message tied to it", async () => {
    renderApp('/library/7/42', {
      backend: backend({}, { 'GET /api/v1/favorite': { status: 200, body: {} } }, true),
      user: member,
    });
    await userEvent.click(await screen.findByRole('button', { name: '举报' }));
    const form = within(await screen.findByRole('form', { name: '举报文档' }));
    await userEvent.click(form.getByRole('button', { name: '提交举报' }));
    const first = form.getByRole('radio', { name: '垃圾广告' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(first.getAttribute('aria-invalid')).toBe('true');
    const reasons = form.getByRole('group', { name: '举报原因' });
    expect(reasons.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(reasons.getAttribute('aria-describedby')!)?.textContent).toBe('请选择举报原因');
    // A copyright report without its remark: the message is the remark's.
    await userEvent.click(form.getByRole('radio', { name: '侵权（版权）' }));
    expect(first.getAttribute('aria-invalid')).toBeNull();
    await userEvent.click(form.getByRole('button', { name: '提交举报' }));
    const remark = form.getByRole('textbox', { name: '补充说明' });
    await waitFor(() => expect(document.activeElement).toBe(remark));
    expect(remark.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(remark.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
      '侵权举报请在补充说明中写明权利人',
    );
    expect(reasons.getAttribute('aria-describedby')).toBeNull();
  });

  it('closes the find bar on Escape or 关闭, giving the focus back to 查找', async () => {
    renderApp('/library/7/42', { backend: backend() });
    (await screen.findByRole('button', { name: '查找' })).focus();
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByLabelText('查找文档中的文字'));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByLabelText('查找文档中的文字')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '查找' }));
    await userEvent.keyboard('{Enter}');
    screen.getByRole('button', { name: '关闭' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByLabelText('查找文档中的文字')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '查找' }));
  });

  it('takes the keyboard into the thumbnails at the page read, closes them on Escape or 关闭, back on 缩略图', async () => {
    renderApp('/library/7/42', { backend: backend() });
    const opener = await screen.findByRole('button', { name: '缩略图' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    const panel = screen.getByRole('navigation', { name: '页面缩略图' });
    expect(document.activeElement).toBe(within(panel).getByRole('button', { name: '跳到第 1 页' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: '页面缩略图' })).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(opener.getAttribute('aria-expanded')).toBe('false');
    await userEvent.keyboard('{Enter}');
    within(screen.getByRole('navigation', { name: '页面缩略图' }))
      .getByRole('button', { name: '关闭' })
      .focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('navigation', { name: '页面缩略图' })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("keeps Tab inside the thumbnails' sheet on a phone, which covers what a Tab out of it would reach", async () => {
    const real = window.matchMedia.bind(window);
    vi.stubGlobal('matchMedia', (query: string) =>
      query === '(max-width: 600px)' ? { ...real(query), matches: true, media: query } : real(query),
    );
    renderApp('/library/7/42', { backend: backend() });
    (await screen.findByRole('button', { name: '缩略图' })).focus();
    await userEvent.keyboard('{Enter}');
    const panel = screen.getByRole('navigation', { name: '页面缩略图' });
    const close = within(panel).getByRole('button', { name: '关闭' });
    const pages = within(panel).getAllByRole('button', { name: /^跳到第 \d+ 页$/ });
    const last = pages[pages.length - 1]!;
    last.focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(close);
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(last);
    // Between the two ends, Tab goes its own way.
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(pages[pages.length - 2]);
  });
});
