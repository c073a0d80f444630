// Which pages of the reader have their image, and which one is being read: two
// IntersectionObservers over the page frames. A frame gets its image once it comes within
// `NEAR_MARGIN` of the viewport (and keeps it). The current page is the first one, from the
// top, that is mostly in sight below the reader's sticky toolbar (half of it, or half of the
// screen): a short page (a landscape table, a cover) that a jump put at the top is the one
// being read, not the page that fills the rest of the screen below it.
import { useCallback, useEffect, useRef, useState } from 'react';

/** How far ahead (and behind) of the viewport images start loading: about two screens. */
export const NEAR_MARGIN = '200% 0px 200% 0px';
/** Visibility steps at which the current page is looked for again. */
const CURRENT_THRESHOLDS = Array.from({ length: 21 }, (_, i) => i / 20);

const pageOf = (element: Element) => Number((element as HTMLElement).dataset.page);

/**
 * The page being read among the frames in sight: the one whose chosen find hit shows below `top`
 * (the toolbar's bottom edge); else the first that shows at least half of itself or fills half
 * of the screen below `top`; failing that the one
 * that shows most, and without layout (no sizes known) the first.
 */
export function pageInSight(frames: Iterable<HTMLElement>, top: number, bottom: number): number | undefined {
  const sorted = [...frames].sort((a, b) => pageOf(a) - pageOf(b));
  const screen = bottom - top;
  let most: { page: number; shown: number } | undefined;
  // The page whose chosen find hit shows below the toolbar is the one read: a hit near a page's top, centred
  // below the toolbar, leaves more of the page before it in sight.
  for (const frame of sorted) {
    const mark = frame.querySelector('.app-text-layer__mark--current')?.getBoundingClientRect();
    if (mark && mark.height > 0 && mark.top >= top && mark.bottom <= bottom) return pageOf(frame);
  }
  for (const frame of sorted) {
    const box = frame.getBoundingClientRect();
    const shown = Math.min(box.bottom, bottom) - Math.max(box.top, top);
    if (shown > 0 && (shown >= box.height / 2 || shown >= screen / 2)) return pageOf(frame);
    if (!most || shown > most.shown) most = { page: pageOf(frame), shown };
  }
  return most && most.shown > 0 ? most.page : sorted[0] && pageOf(sorted[0]);
}

export interface LazyPages {
  /** Whether the image of `page` may load (the eager ones always). */
  isNear: (page: number) => boolean;
  current: number;
  setCurrent: (page: number) => void;
  /** Ref callback of each page frame (`data-page` holds its number). */
  observe: (element: HTMLElement | null) => void;
}

/**
 * `coveredTop` says how much of the window's top the reader's sticky bars cover (pages under
 * them are not in sight).
 */
export function useLazyPages(eagerPages: number, coveredTop: () => number = () => 0): LazyPages {
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set());
  // Without an observer (very old browsers) every image is left to the browser's own lazy loading.
  // Not on the server (the gateway's first screen): the others wait for the app's observer, so
  // that no page but the eager ones downloads beside the page before the app has started.
  const [observing] = useState(() => typeof window === 'undefined' || typeof IntersectionObserver !== 'undefined');
  const [current, setCurrent] = useState(1);
  const observers = useRef<{ near?: IntersectionObserver; current?: IntersectionObserver }>({});
  const frames = useRef(new Set<HTMLElement>());
  const covered = useRef(coveredTop);
  useEffect(() => {
    covered.current = coveredTop;
  }, [coveredTop]);

  useEffect(() => {
    if (!observing) return undefined;
    const nearObserver = new IntersectionObserver(
      (entries) => {
        const arriving = entries.filter((e) => e.isIntersecting).map((e) => pageOf(e.target));
        if (arriving.length === 0) return;
        setNear((previous) =>
          arriving.every((p) => previous.has(p)) ? previous : new Set([...previous, ...arriving]),
        );
        for (const entry of entries) if (entry.isIntersecting) nearObserver.unobserve(entry.target);
      },
      { rootMargin: NEAR_MARGIN },
    );
    const inSight = new Set<HTMLElement>();
    const currentObserver = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) inSight.add(entry.target as HTMLElement);
          else inSight.delete(entry.target as HTMLElement);
        }
        const reading = pageInSight(inSight, Math.max(covered.current(), 0), window.innerHeight);
        if (reading !== undefined) setCurrent(reading);
      },
      { threshold: CURRENT_THRESHOLDS },
    );
    observers.current = { near: nearObserver, current: currentObserver };
    for (const frame of frames.current) {
      nearObserver.observe(frame);
      currentObserver.observe(frame);
    }
    return () => {
      nearObserver.disconnect();
      currentObserver.disconnect();
      observers.current = {};
    };
  }, [observing]);

  const isNear = useCallback(
    (page: number) => !observing || page <= eagerPages || near.has(page),
    [observing, eagerPages, near],
  );

  const observe = useCallback((element: HTMLElement | null) => {
    if (!element) return;
    frames.current.add(element);
    observers.current.near?.observe(element);
    observers.current.current?.observe(element);
  }, []);

  return { isNear, current, setCurrent, observe };
}
