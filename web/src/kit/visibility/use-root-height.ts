// A bar fixed or sticky at an edge of the screen tells what stands beside it how much it covers:
// a CSS variable on the root, kept the bar's height as it changes (the browser's font size,
// decision 111; a line more inside it), read by the stylesheets of what must stay clear of it.
import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keeps the root's `variable` what `covered` measures of the element the returned ref is put on
 * (in px; null: the variable removed, the stylesheet's own fallback applies), measured again
 * whenever the element's size changes, and removed once the element is gone. `covered` is a
 * function of the module (one for the element's life).
 */
export function useRootHeight<T extends HTMLElement>(
  variable: `--${string}`,
  covered: (element: T) => number | null,
): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = covered(element);
      if (height === null) root.style.removeProperty(variable);
      else root.style.setProperty(variable, `${height}px`);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(variable);
    };
  }, [variable, covered]);
  return ref;
}
