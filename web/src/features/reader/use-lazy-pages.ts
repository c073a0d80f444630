// Which pages of the reader have their image, and which one is being read: two
// IntersectionObservers over the page frames. A frame gets its image once it comes within
// `NEAR_MARGIN` of the viewport (and keeps it); the page crossing the middle of the
// viewport is the current one.
import { useCallback, useEffect, useRef, useState } from 'react';

/** How far ahead (and behind) of the viewport images start loading: about two screens. */
export const NEAR_MARGIN = '200% 0px 200% 0px';
/** A thin band across the middle of the viewport: the page in it is the one being read. */
const CURRENT_BAND = '-49% 0px -50% 0px';

const pageOf = (element: Element) => Number((element as HTMLElement).dataset.page);

export interface LazyPages {
  /** Whether the image of `page` may load (the eager ones always). */
  isNear: (page: number) => boolean;
  current: number;
  setCurrent: (page: number) => void;
  /** Ref callback of each page frame (`data-page` holds its number). */
  observe: (element: HTMLElement | null) => void;
}

export function useLazyPages(eagerPages: number): LazyPages {
  const [near, setNear] = useState<ReadonlySet<number>>(() => new Set());
  // Without an observer (very old browsers) every image is left to the browser's own lazy loading.
  const [observing] = useState(() => typeof IntersectionObserver !== 'undefined');
  const [current, setCurrent] = useState(1);
  const observers = useRef<{ near?: IntersectionObserver; current?: IntersectionObserver }>({});
  const frames = useRef(new Set<HTMLElement>());

  useEffect(() => {
    if (!observing) return undefined;
    const nearObserver = new IntersectionObserver(
      (entries) => {
        const arriving = entries.filter((e) => e.isIntersecting).map((e) => pageOf(e.target));
        if (arriving.length === 0) return;
        setNear((previous) => (arriving.every((p) => previous.has(p)) ? previous : new Set([...previous, ...arriving])));
        for (const entry of entries) if (entry.isIntersecting) nearObserver.unobserve(entry.target);
      },
      { rootMargin: NEAR_MARGIN },
    );
    const currentObserver = new IntersectionObserver(
      (entries) => {
        const reading = entries.find((e) => e.isIntersecting);
        if (reading) setCurrent(pageOf(reading.target));
      },
      { rootMargin: CURRENT_BAND },
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

  const isNear = useCallback((page: number) => !observing || page <= eagerPages || near.has(page), [observing, eagerPages, near]);

  const observe = useCallback((element: HTMLElement | null) => {
    if (!element) return;
    frames.current.add(element);
    observers.current.near?.observe(element);
    observers.current.current?.observe(element);
  }, []);

  return { isNear, current, setCurrent, observe };
}
