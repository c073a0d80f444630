// Whether an element has come near the viewport, for what loads only when the reader gets
// there (the comments under an article or a document): the first screen then asks for
// nothing besides what the page carries. Once near, it stays so.
import { useEffect, useState, type RefObject } from 'react';

/** Within about one screen below (or above) the viewport. */
const NEAR_MARGIN = '100% 0px 100% 0px';

/** True once `ref`'s element is within `margin` of the viewport; at once where there is no IntersectionObserver. */
export function useNearViewport(ref: RefObject<Element | null>, margin = NEAR_MARGIN): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return undefined;
    // The first answer comes after the page has been painted, even for an element in view.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, near]);
  return near;
}
