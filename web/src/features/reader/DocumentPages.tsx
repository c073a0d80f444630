// The pages of a converted document, one image each in a box of the first page's shape (so
// nothing moves while they load), which a page of another shape (a landscape table in a
// portrait report, a scanned cover) takes once its image has come, or at once where the tab has
// had its image before (back to the document or a reload: the place put back is the one left):
// the first page at once and with high priority, the next ones as they come near. A toolbar with
// the "n / N" counter and a jump box, zoom in/out and fit-width, full screen, find in the
// document; keyboard ←/→ (page) and +/− (zoom). Over each
// page its text, selectable where the site lets this reader copy it, and the marks of a find.
// A page says 第 N 页正在加载… until its image comes (on a slow network a blank page looked empty);
// a page whose image failed offers 重试; the failed pages try again by themselves, once each,
// when another page's image comes, the reader comes back to a failed page, the browser is back
// online or the window gets the focus again (the file store or the site was away for a while:
// the reader clicks nothing).
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ClipboardEvent,
  type FormEvent,
  type ReactNode,
} from 'react';
import type { Document } from '../../../../shared/types/document';
import { IconClose, IconMinus, IconPlus } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { AdSlot } from '../advertisement/AdSlot';
import { useSession } from '../session/use-session';
import { pageAspectRatio } from '../document/document-links';
import { pageImagePath } from '../../../../shared/page-image';
import { usePlacePutBack } from '../../kit/visibility/place-restored';
import { OWN_MOVES } from '../../kit/visibility/use-hash-anchor';
import { FindInDocument, type ChosenHit } from './FindInDocument';
import { inlinedPage } from './inlined-pages';
import { usePageShapes, type PageShapes } from './page-shapes';
import { PageTextLayer } from './PageTextLayer';
import { PageThumbnails, PHONE_WIDTH } from './PageThumbnails';
import { useResumeReading } from './resume-reading';
import { useLazyPages } from './use-lazy-pages';
import { closedPagesNote, pastPreviewNote, useVipReadsAll } from './PreviewEnd';
import './reader.css';
import { isTyping } from './typing';

/** Zoom steps; 1 is the width of the reading column ("fit width"). */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
const FIT_WIDTH = 1;
const MIN_ZOOM = ZOOM_STEPS[0];
const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1] ?? FIT_WIDTH;
/** An advertisement place between pages, every this many pages. */
const AD_EVERY = 5;

/**
 * The middle of the pages' view (the box that scrolls them sideways): its x in the window, and
 * where it falls across the pages (0 their left edge, 1 their right).
 */
function middleOfView(view: HTMLElement | null) {
  const pages = view?.firstElementChild?.getBoundingClientRect();
  if (!view || !pages?.width) return undefined;
  const x = view.getBoundingClientRect().left + view.clientLeft + view.clientWidth / 2;
  return { view, pages, x, across: (x - pages.left) / pages.width };
}

/** How far what scrolls the pages has scrolled down: the reader in full screen, the window otherwise. */
function scrolledBy(reader: HTMLElement | null): number {
  return reader && document.fullscreenElement === reader ? reader.scrollTop : window.scrollY;
}

/**
 * Whether this browser shows an element in full screen: not an iPhone's Safari, where 全屏 did
 * nothing. Rendered by the gateway (no browser there) and hydrated as offered, then as it is.
 */
const noChange = () => () => undefined;
function useFullscreenEnabled(): boolean {
  return useSyncExternalStore(
    noChange,
    () => document.fullscreenEnabled === true,
    () => true,
  );
}

/**
 * The image's own `width / height` where it differs from the box's shape by more than 1 %
 * (rounding of the page sizes aside); undefined where the box fits it already.
 */
function shapeOf(image: HTMLImageElement, boxRatio: string): string | undefined {
  const { naturalWidth: width, naturalHeight: height } = image;
  if (!width || !height) return undefined;
  const [boxWidth = 0, boxHeight = 0] = boxRatio.split('/').map(Number);
  const box = boxWidth / boxHeight;
  return Math.abs(width / height - box) > box * 0.01 ? `${width} / ${height}` : undefined;
}

function PageFrame({
  doc,
  page,
  total,
  ratio,
  load,
  observe,
  selectable,
  findWords,
  findCurrent,
  retryRound,
  onImage,
  shapes,
  reshaping,
}: {
  doc: Document;
  page: number;
  total: number;
  ratio: string;
  load: boolean;
  observe: (element: HTMLElement | null) => void;
  selectable: boolean;
  findWords: string;
  /** the place of the chosen hit among this page's (−1: the hit is elsewhere) */
  findCurrent: number;
  /** Bumped when the failed pages should try again (each of them once). */
  retryRound: number;
  /** Told whether the image of this page came (true) or failed (false). */
  onImage: (page: number, came: boolean) => void;
  /** The shapes the document's page images came in before (a return to it, a reload). */
  shapes: PageShapes;
  /** Told before the frame takes its image's shape, and again once it is laid out in it. */
  reshaping: { before: () => void; after: () => void };
}) {
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [round, setRound] = useState(retryRound);
  if (round !== retryRound) {
    setRound(retryRound);
    if (failed) {
      setFailed(false);
      setAttempt((n) => n + 1);
    }
  }
  const hash = doc.attachment?.hash;
  const src = pageImagePath(doc, page);
  // The shape its image came in before (a return to the document): the layout is the one left.
  const [ownRatio, setOwnRatio] = useState(() => shapes.known(page));
  const reshaped = useRef(false);
  useLayoutEffect(() => {
    if (!reshaped.current) return;
    reshaped.current = false;
    reshaping.after();
  }, [ownRatio, reshaping]);
  // The text comes after the image: nothing of it holds the page's first paint.
  const [loaded, setLoaded] = useState(false);
  const first = page === 1;
  const inBrowser = useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
  return (
    <figure
      className="app-reader__page"
      data-page={page}
      ref={observe}
      style={{ aspectRatio: ownRatio ?? ratio }}
      aria-label={`第 ${page} 页`}
    >
      {/* Under the image, which covers it as it draws. In the gateway's first screen only where no image is (no load there would take it away). */}
      {!failed && (inBrowser ? !loaded : !(load && src)) && (
        <span className="app-reader__page-loading" aria-hidden="true">
          <span className="app-reader__page-spinner" />第 {page} 页正在加载…
        </span>
      )}
      {load && src && !failed ? (
        <img
          key={attempt}
          src={attempt > 0 ? `${src}?retry=${attempt}` : ((first ? inlinedPage(src) : undefined) ?? src)}
          alt={`第 ${page} 页`}
          decoding={first ? 'sync' : 'async'}
          loading={first ? 'eager' : 'lazy'}
          fetchPriority={first ? 'high' : 'auto'}
          onLoad={(event) => {
            const shape = shapeOf(event.currentTarget, ratio);
            shapes.keep(page, shape);
            if (shape !== ownRatio) {
              reshaped.current = true;
              reshaping.before();
            }
            setOwnRatio(shape);
            setLoaded(true);
            onImage(page, true);
          }}
          onError={() => {
            setFailed(true);
            onImage(page, false);
          }}
        />
      ) : null}
      {loaded && hash && (
        <PageTextLayer
          hash={hash}
          page={page}
          selectable={selectable}
          marks={findWords ? { words: findWords, current: findCurrent } : null}
        />
      )}
      {failed && (
        <div className="app-reader__page-failed" role="alert">
          <span>第 {page} 页加载失败</span>
          <Button
            size="small"
            onClick={() => {
              setFailed(false);
              setAttempt((n) => n + 1);
            }}
          >
            重试
          </Button>
        </div>
      )}
      <figcaption className="app-reader__page-number">
        {page} / {total}
      </figcaption>
    </figure>
  );
}

export function DocumentPages({
  doc,
  shownPages,
  after,
  locked,
  accessFailed = false,
  copyText,
  startPage = 1,
  startWords = '',
}: {
  doc: Document;
  /** Pages shown (the free preview, or all of them for an entitled reader). */
  shownPages: number;
  /** What follows the last shown page (the end of the preview). */
  after?: ReactNode;
  /**
   * Whether the pages past `shownPages` stay closed to this reader (the free preview), undefined
   * while the server is being asked.
   */
  locked: boolean | undefined;
  /**
   * The server could not be asked whether the pages past `shownPages` open to this reader (no
   * network, a server error; `locked` is undefined): `after` says so and offers to ask again.
   */
  accessFailed?: boolean;
  /** Whether this reader may copy the text, or why not. */
  copyText: true | string;
  /** The page to open at (a link to a page, a search hit), and the words to mark there. */
  startPage?: number;
  startWords?: string;
}) {
  const total = doc.pages ?? 0;
  const ratio = pageAspectRatio(doc);
  const shapes = usePageShapes(doc.id ?? 0, pageImagePath(doc, 1) ?? '');
  const reader = useRef<HTMLElement>(null);
  const toolbarBottom = useCallback(
    () => reader.current?.querySelector('.app-reader__toolbar')?.getBoundingClientRect().bottom ?? 0,
    [],
  );
  const { isNear, current, setCurrent, observe } = useLazyPages(1, toolbarBottom);
  const [zoom, setZoom] = useState<number>(FIT_WIDTH);
  const [jump, setJump] = useState('');
  const [jumpError, setJumpError] = useState<string>();
  const [fullscreen, setFullscreen] = useState(false);
  const fullscreenEnabled = useFullscreenEnabled();
  const [finding, setFinding] = useState(startWords !== '');
  const [thumbnails, setThumbnails] = useState(false);
  const { user } = useSession();
  const resume = useResumeReading(doc.id ?? 0, user?.id ?? 0, current);
  // A link to a page is where the reader wants to be: no offer to go elsewhere.
  const resumeAt = resume.offer !== null && startPage === 1 && resume.offer <= shownPages ? resume.offer : null;
  // A link to a page of the document past the free preview (a site-search hit names such pages
  // too): this reader may not read it, and is told so at the preview's end.
  const linkedPastPreview = startPage > shownPages && startPage <= total;
  const pastPreview = locked === true && linkedPastPreview ? startPage : undefined;
  const vipReads = useVipReadsAll();
  // What the find box says of the linked page: closed to this reader, or not known for now.
  const linkNote =
    pastPreview !== undefined
      ? pastPreviewNote(pastPreview, vipReads)
      : accessFailed && linkedPastPreview
        ? `第 ${startPage} 页暂时无法打开，请稍后再试`
        : undefined;
  const [chosen, setChosen] = useState<ChosenHit | null>(() =>
    startWords
      ? {
          words: startWords,
          // Past the preview while the access is asked: the page itself, should this reader read it.
          page: startPage <= total ? Math.max(startPage, 1) : Math.min(startPage, shownPages),
          occurrence: 0,
          index: -1,
        }
      : null,
  );
  const [copyRefusal, setCopyRefusal] = useState<string>();

  // The pages whose image failed: once an image comes again, or the browser is back online or
  // the window focused, each of them tries once more (a round), and no round while none failed.
  const failedPages = useRef(new Set<number>());
  const [retryRound, setRetryRound] = useState(0);
  const retryFailed = useCallback(() => {
    if (failedPages.current.size > 0) setRetryRound((n) => n + 1);
  }, []);
  const onImage = useCallback(
    (page: number, came: boolean) => {
      if (!came) {
        failedPages.current.add(page);
        return;
      }
      failedPages.current.delete(page);
      retryFailed();
    },
    [retryFailed],
  );
  // Coming back to a page whose image failed (scrolled to, jumped to) is asking for it again.
  useEffect(() => {
    if (failedPages.current.has(current)) retryFailed();
  }, [current, retryFailed]);
  useEffect(() => {
    window.addEventListener('online', retryFailed);
    window.addEventListener('focus', retryFailed);
    return () => {
      window.removeEventListener('online', retryFailed);
      window.removeEventListener('focus', retryFailed);
    };
  }, [retryFailed]);

  const afterPages = useRef<HTMLDivElement>(null);
  /**
   * Scrolls `element`'s top just below the toolbar, which sticks (below the site's header on a wide
   * screen: the page's scroll-padding, layouts.css, keeps that out already; in full screen, none).
   */
  const bringToTop = useCallback((element: HTMLElement | null | undefined) => {
    const toolbar = reader.current?.querySelector<HTMLElement>('.app-reader__toolbar');
    if (element && toolbar) element.style.scrollMarginTop = `${toolbar.offsetHeight + 8}px`;
    element?.scrollIntoView({ block: 'start' });
  }, []);
  /** The page the reader was last taken to (a jump, a find's hit, 继续阅读, an arrow key). */
  const wentTo = useRef<number | null>(null);
  const goTo = useCallback(
    (page: number) => {
      const target = Math.min(Math.max(page, 1), shownPages);
      bringToTop(reader.current?.querySelector<HTMLElement>(`[data-page="${target}"]`));
      wentTo.current = target;
      setCurrent(target);
    },
    [shownPages, setCurrent, bringToTop],
  );

  // The page read, for what lays the pages out anew (full screen, zoom) to keep it in sight.
  const currentPage = useRef(current);
  useEffect(() => {
    currentPage.current = current;
  }, [current]);

  // A zoom resizes every page above the one read while the window keeps its offset: at 390 px a
  // reader on page 5 found page 4 at 150 % and page 8 at 50 %. The spot of the page read that was
  // under the toolbar (its top, when below it) stays where it was. Sideways, the pages' view kept
  // its offset too (at 200 % on a phone, their left edge): the spot under its middle stays there.
  const zoomSpot = useRef<{ page: number; share: number; y: number; across: number } | null>(null);
  const pagesView = useRef<HTMLDivElement>(null);
  const changeZoom = useCallback(
    (next: (value: number) => number) => {
      const page = currentPage.current;
      const box = reader.current?.querySelector(`[data-page="${page}"]`)?.getBoundingClientRect();
      if (box?.height) {
        const share = Math.min(Math.max((toolbarBottom() - box.top) / box.height, 0), 1);
        zoomSpot.current = {
          page,
          share,
          y: box.top + share * box.height,
          across: middleOfView(pagesView.current)?.across ?? 0.5,
        };
      }
      setZoom(next);
    },
    [toolbarBottom],
  );
  useLayoutEffect(() => {
    const spot = zoomSpot.current;
    zoomSpot.current = null;
    const box = spot && reader.current?.querySelector(`[data-page="${spot.page}"]`)?.getBoundingClientRect();
    if (!spot || !box) return;
    // In full screen the reader scrolls, not the window.
    const scroller = document.fullscreenElement === reader.current ? reader.current : window;
    scroller?.scrollBy(0, box.top + spot.share * box.height - spot.y);
    const middle = middleOfView(pagesView.current);
    if (middle) middle.view.scrollLeft += middle.pages.left + spot.across * middle.pages.width - middle.x;
  }, [zoom]);
  // A page that takes its image's shape (its image came after a jump or 继续阅读 past it) changes
  // the height above the pages after it. The browser keeps what is in sight in place only at times
  // (not when what it holds on to is inside the page that changed): a landscape page 3 took page 4
  // from under the toolbar at 1280 px. The page read is kept where it was, once any number of pages
  // took their shape (a layout effect, before the screen is drawn).
  const readBeforeReshape = useRef<{ frame: Element; top: number } | null>(null);
  // The window scrolls by whole pixels, so a correction may miss by a fraction of one: it is carried into the next
  // (same page read, nothing scrolled since), or pages taking their shape one after another would add theirs up
  // (four portrait pages at 1280 px moved the page read 1.125 px).
  const missedByLast = useRef<{ frame: Element; missed: number; scrolled: number } | null>(null);
  const reshaping = useMemo(
    () => ({
      before: () => {
        if (readBeforeReshape.current) return;
        const frame = reader.current?.querySelector(`[data-page="${currentPage.current}"]`);
        if (!frame) return;
        const last = missedByLast.current;
        missedByLast.current = null;
        const carried = last && last.frame === frame && last.scrolled === scrolledBy(reader.current) ? last.missed : 0;
        readBeforeReshape.current = { frame, top: frame.getBoundingClientRect().top - carried };
      },
      after: () => {
        const read = readBeforeReshape.current;
        readBeforeReshape.current = null;
        if (!read?.frame.isConnected) return;
        const moved = read.frame.getBoundingClientRect().top - read.top;
        const scroller = document.fullscreenElement === reader.current ? reader.current : window;
        if (moved !== 0) scroller?.scrollBy(0, moved);
        const missed = read.frame.getBoundingClientRect().top - read.top;
        missedByLast.current =
          Math.abs(missed) < 1 ? { frame: read.frame, missed, scrolled: scrolledBy(reader.current) } : null;
      },
    }),
    [],
  );
  const zoomBy = useCallback(
    (direction: 1 | -1) =>
      changeZoom((value) => {
        const index = ZOOM_STEPS.findIndex((step) => step >= value);
        const next = ZOOM_STEPS[Math.min(Math.max(index + direction, 0), ZOOM_STEPS.length - 1)];
        return next ?? value;
      }),
    [changeZoom],
  );

  // 放大 at the largest step (缩小 at the smallest) turns disabled under the keyboard, which drops
  // the focus on <body>: it goes to the other zoom button.
  const zoomedByButton = useRef(false);
  const zoomByButton = (direction: 1 | -1) => {
    zoomedByButton.current = true;
    zoomBy(direction);
  };
  useEffect(() => {
    if (!zoomedByButton.current) return;
    zoomedByButton.current = false;
    const focused = document.activeElement;
    if (focused instanceof HTMLButtonElement && !focused.disabled) return;
    reader.current?.querySelector<HTMLElement>('.app-reader__zoom button:not(:disabled)')?.focus();
  }, [zoom]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      // → on the last page shown brings what follows into sight: the end of the free preview
      // (why the next page does not come, and how to read on), or the end of the document.
      if (event.key === 'ArrowRight') {
        if (current >= shownPages && afterPages.current?.firstElementChild) bringToTop(afterPages.current);
        else goTo(current + 1);
      } else if (event.key === 'ArrowLeft') goTo(current - 1);
      else if (event.key === '+' || event.key === '=') zoomBy(1);
      else if (event.key === '-' || event.key === '_') zoomBy(-1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current, goTo, zoomBy, shownPages, bringToTop]);

  // Entering or leaving full screen lays the pages out anew (the reader scrolls by itself, or the
  // window again): the page read when it changed is brought back into sight. The change is
  // announced before the page observers see the new layout, so `current` is still that page.
  const keepPage = useRef<number | null>(null);
  useEffect(() => {
    const onChange = () => {
      keepPage.current = currentPage.current;
      setFullscreen(document.fullscreenElement === reader.current && reader.current !== null);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  useLayoutEffect(() => {
    const page = keepPage.current;
    keepPage.current = null;
    if (page !== null) goTo(page);
  }, [fullscreen, goTo]);

  // A link to a page (`?page=`) opens there, its words marked (`&wd=`): once, when the reader
  // mounts, or, for a page past the preview, once the server has said whether this reader may
  // read it. One it may not takes it to the preview's end, which offers the ways to read on.
  // While the server cannot be asked, the reader waits at the preview's end, which says so and
  // asks again: once it answers, the link is followed as above.
  const opened = useRef(false);
  const waitedAtEnd = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    if (linkedPastPreview && locked === undefined) {
      if (accessFailed && !waitedAtEnd.current) {
        waitedAtEnd.current = true;
        bringToTop(afterPages.current);
        setCurrent(shownPages);
      }
      return;
    }
    opened.current = true;
    if (pastPreview !== undefined) {
      bringToTop(afterPages.current);
      setCurrent(shownPages);
    } else if (startPage > 1) goTo(startPage);
  }, [goTo, startPage, shownPages, linkedPastPreview, locked, accessFailed, pastPreview, bringToTop, setCurrent]);

  // A place put back (a reload, Back) past the free preview, for a reader who reads on: the pages
  // after the preview come once the server has said so, after the place was put back (as far down
  // as the page went then, the preview's end). It is put back again as they come, unless the
  // reader moved on their own meanwhile: whichever way the page moved since, as the browser keeps
  // what was in sight in place while the pages come above it (at 390 px the comments under the
  // preview, which took the page past the place).
  const placePutBack = usePlacePutBack();
  const heldPlace = useRef(placePutBack);
  const shownAtFirst = useRef(shownPages);
  useEffect(() => {
    if (heldPlace.current === null) return undefined;
    const letGo = () => {
      heldPlace.current = null;
    };
    for (const move of OWN_MOVES) window.addEventListener(move, letGo, { passive: true, once: true });
    return () => {
      for (const move of OWN_MOVES) window.removeEventListener(move, letGo);
    };
  }, []);
  useLayoutEffect(() => {
    const place = heldPlace.current;
    if (place === null || shownPages <= shownAtFirst.current) return;
    heldPlace.current = null;
    if (window.scrollY !== place) window.scrollTo(0, place);
  }, [shownPages]);

  const choose = useCallback(
    (hit: ChosenHit) => {
      setChosen(hit);
      goTo(hit.page);
    },
    [goTo],
  );

  // Other words typed (or none): the pages mark those, none of them the current one yet, as a
  // browser's find does; the words of the hit chosen last are no longer marked.
  const markWords = useCallback(
    (words: string) =>
      setChosen((was) => (was?.words === words ? was : words ? { words, page: 0, occurrence: -1, index: -1 } : null)),
    [],
  );

  /** Copied text carries the address of the page it was copied from. */
  const onCopy = (event: ClipboardEvent<HTMLElement>) => {
    const selection = window.getSelection();
    const text = selection?.toString() ?? '';
    const anchor = selection?.anchorNode;
    const page = (anchor instanceof Element ? anchor : anchor?.parentElement)?.closest<HTMLElement>('[data-page-text]')
      ?.dataset.pageText;
    if (!page) return;
    // A locked layer selects nothing (user-select: none): the attempt alone says why.
    if (copyText !== true) {
      event.preventDefault();
      setCopyRefusal(copyText);
      return;
    }
    if (!text) return;
    event.preventDefault();
    const address = `${window.location.origin}${window.location.pathname}?page=${page}`;
    event.clipboardData.setData('text/plain', `${text}\n\n——摘自《${doc.title ?? ''}》第 ${page} 页 ${address}`);
  };

  // The offer goes once answered, with the focus: the keyboard stays in the reader (where ←/→ turn
  // the pages), not sent to the page's top.
  const answerResume = (page?: number) => {
    if (page) goTo(page);
    else {
      wentTo.current = null;
      resume.dismiss();
    }
    reader.current?.focus({ preventScroll: true });
  };
  // The offer's row goes once the reader has left the page opened, which the browser keeps where
  // the taller toolbar left it when they were taken there (继续阅读, 跳转, a find's hit): the foot of
  // the page before showed under the toolbar (54 px at 390 px). It is brought under the toolbar
  // again as it is now.
  const offered = useRef(resumeAt !== null);
  useLayoutEffect(() => {
    const wasOffered = offered.current;
    offered.current = resumeAt !== null;
    if (wasOffered && resumeAt === null && wentTo.current === current) goTo(current);
  }, [resumeAt, current, goTo]);

  // On a phone the thumbnails are a sheet over the pages, which the back button closes as it would a
  // screen: opened, it adds an entry to the history (the same address and router state, so the
  // router moves nothing when it goes), and that entry goes when the sheet closes.
  const sheetEntry = useRef(false);
  useEffect(() => {
    if (!thumbnails) return undefined;
    const backed = () => {
      if (!sheetEntry.current) return;
      sheetEntry.current = false;
      setThumbnails(false);
    };
    window.addEventListener('popstate', backed);
    return () => window.removeEventListener('popstate', backed);
  }, [thumbnails]);
  const openThumbnails = () => {
    if (window.matchMedia(PHONE_WIDTH).matches) {
      window.history.pushState(window.history.state, '');
      sheetEntry.current = true;
    }
    setThumbnails(true);
  };
  const closeThumbnails = () => {
    if (sheetEntry.current) {
      sheetEntry.current = false;
      window.history.back();
    }
    setThumbnails(false);
    // The panel goes with the focus: the keyboard goes back to 缩略图, not to the page's top.
    document.getElementById('reader-thumbnails')?.focus();
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void reader.current?.requestFullscreen?.();
  };

  const submitJump = (event: FormEvent) => {
    event.preventDefault();
    const page = Number(jump.trim());
    if (!jump.trim()) {
      setJumpError('请输入页码');
      return;
    }
    if (!Number.isInteger(page)) {
      setJumpError('页码应为整数');
      return;
    }
    if (page < 1 || page > total) {
      setJumpError(`页码应在 1 到 ${total} 之间`);
      return;
    }
    if (page > shownPages) {
      // Why it goes no further, in the words of a link past the preview (linkNote); while the
      // server is (or could not be) asked, the end of the preview is not known to be why.
      const shown = `可阅读到第 ${shownPages} 页`;
      setJumpError(locked === true ? `${pastPreviewNote(page, vipReads)}（${shown}）` : shown);
      goTo(shownPages);
      return;
    }
    setJumpError(undefined);
    setJump('');
    goTo(page);
  };

  const pages = Array.from({ length: shownPages }, (_, i) => i + 1);
  return (
    <section
      ref={reader}
      className={`app-reader${fullscreen ? ' app-reader--fullscreen' : ''}`}
      aria-label="文档阅读器"
      tabIndex={-1}
      onCopy={onCopy}
    >
      <div className="app-reader__toolbar" role="toolbar" aria-label="阅读工具">
        {/* A live region is heard by its text, not by a label (which a <span> may not have): the
            words are in it, one text node, read whole; the figures are for the eye. */}
        <span className="app-reader__counter" aria-live="polite" aria-atomic="true">
          <span aria-hidden="true">
            {current} / {total}
          </span>
          <span className="app-visually-hidden">{`当前第 ${current} 页，共 ${total} 页`}</span>
        </span>
        <form className="app-reader__jump" onSubmit={submitJump} noValidate>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={total}
            value={jump}
            onChange={(event) => {
              setJump(event.target.value);
              setJumpError(undefined);
            }}
            aria-label="跳转到页码"
            aria-invalid={jumpError ? true : undefined}
            aria-describedby={jumpError ? 'reader-jump-error' : undefined}
            placeholder="页码"
          />
          <Button htmlType="submit" size="small">
            跳转
          </Button>
        </form>
        <Button id="reader-find" size="small" onClick={() => setFinding((open) => !open)} aria-expanded={finding}>
          查找
        </Button>
        <Button
          id="reader-thumbnails"
          size="small"
          onClick={() => (thumbnails ? closeThumbnails() : openThumbnails())}
          aria-expanded={thumbnails}
        >
          缩略图
        </Button>
        <span className="app-reader__zoom">
          {/* Icons, not the signs − and +: a sign alone is text whose contrast axe cannot judge. */}
          <Button
            size="small"
            icon={<IconMinus />}
            onClick={() => zoomByButton(-1)}
            disabled={zoom <= MIN_ZOOM}
            aria-label="缩小"
          />
          {/* A status (which may be named, as a <span> may not): the new size is said as it changes. */}
          <output className="app-reader__zoom-value" aria-label="缩放比例">{`${Math.round(zoom * 100)}%`}</output>
          <Button
            size="small"
            icon={<IconPlus />}
            onClick={() => zoomByButton(1)}
            disabled={zoom >= MAX_ZOOM}
            aria-label="放大"
          />
          <Button size="small" onClick={() => changeZoom(() => FIT_WIDTH)} aria-pressed={zoom === FIT_WIDTH}>
            适合宽度
          </Button>
        </span>
        {fullscreenEnabled && (
          <Button size="small" onClick={toggleFullscreen}>
            {fullscreen ? '退出全屏' : '全屏'}
          </Button>
        )}
        {/* Below the controls, on a line of its own: beside the page box it pushed them onto a third row on a phone. */}
        {jumpError && (
          <p id="reader-jump-error" className="app-reader__jump-error" role="alert">
            {jumpError}
          </p>
        )}
        {finding && doc.id && (
          <FindInDocument
            documentId={doc.id}
            initialWords={startWords}
            linkNote={linkNote}
            current={chosen}
            onChoose={choose}
            onWords={markWords}
            onClose={() => {
              setFinding(false);
              setChosen(null);
              // The bar's 关闭 goes with it: the keyboard goes back to 查找, not to the page's top.
              document.getElementById('reader-find')?.focus();
            }}
          />
        )}
        {resumeAt !== null && (
          <p className="app-reader__resume">
            <Button size="small" theme="solid" onClick={() => answerResume(resumeAt)}>
              继续阅读（第 {resumeAt} 页）
            </Button>
            <Button
              size="small"
              theme="borderless"
              icon={<IconClose />}
              onClick={() => answerResume()}
              aria-label="不用了"
            />
          </p>
        )}
        {copyRefusal && (
          <p className="app-reader__copy-refusal" role="alert">
            {copyRefusal}
          </p>
        )}
      </div>
      {thumbnails && (
        <PageThumbnails
          doc={doc}
          pages={shownPages}
          closedNote={
            locked === true && shownPages < total ? closedPagesNote(shownPages + 1, total, vipReads) : undefined
          }
          current={current}
          ratio={ratio}
          onChoose={(page) => {
            goTo(page);
            // On a phone the sheet covers the pages: it goes once a page is chosen.
            if (window.matchMedia(PHONE_WIDTH).matches) closeThumbnails();
          }}
          onClose={closeThumbnails}
        />
      )}
      <div className="app-reader__viewport" ref={pagesView}>
        <div className="app-reader__pages" style={{ width: `${zoom * 100}%` }}>
          {pages.map((page) => (
            <div key={page} className="app-reader__slot">
              <PageFrame
                doc={doc}
                page={page}
                total={total}
                ratio={ratio}
                load={isNear(page)}
                observe={observe}
                selectable={copyText === true}
                findWords={chosen?.words ?? ''}
                findCurrent={chosen?.page === page ? chosen.occurrence : -1}
                retryRound={retryRound}
                onImage={onImage}
                shapes={shapes}
                reshaping={reshaping}
              />
              {page % AD_EVERY === 0 && page < shownPages && <AdSlot slot="document_between" />}
            </div>
          ))}
        </div>
      </div>
      <div ref={afterPages}>{after}</div>
    </section>
  );
}
