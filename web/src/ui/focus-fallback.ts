// The keyboard's place after a dialog closes. A dialog gives the focus back to what had it as it
// opened; when that goes away (a row's 退款 taken away once the list shows the order refunded, a
// batch button disabled once its rows are done), the focus fell to the page's <body> and a
// keyboard had to Tab from the top again. This puts it on `fallback()` instead, only in that case.
import { useEffect, useRef } from 'react';

/** Whether the keyboard is nowhere: on the page's <body>, on nothing, or on a control removed or disabled. */
export function focusLost(): boolean {
  const focused = document.activeElement;
  return !focused || focused === document.body || !focused.isConnected || (focused as HTMLButtonElement).disabled;
}

/** The first control of `root` matching `selector` that takes the keyboard (not disabled, not hidden). */
export function firstFocusable(root: ParentNode | null | undefined, selector = 'button, input, a[href]') {
  return [...(root?.querySelectorAll<HTMLElement>(selector) ?? [])].find(
    (element) => !(element as HTMLButtonElement).disabled && element.getClientRects().length > 0,
  );
}

/**
 * When `open` turns false, and at each render after it (the list refreshed by what the dialog did
 * may come a render later) until the next key or pointer press, puts a lost focus on `fallback()`.
 */
export function useFocusFallback(open: boolean, fallback: () => HTMLElement | null | undefined): void {
  const wasOpen = useRef(open);
  const watching = useRef(false);
  const target = useRef(fallback);
  useEffect(() => {
    target.current = fallback;
    if (wasOpen.current && !open) watching.current = true;
    wasOpen.current = open;
    if (open || !watching.current || !focusLost()) return;
    const to = target.current();
    if (!to) return;
    watching.current = false;
    to.focus();
  });
  useEffect(() => {
    const stop = () => {
      watching.current = false;
    };
    document.addEventListener('keydown', stop, true);
    document.addEventListener('pointerdown', stop, true);
    return () => {
      document.removeEventListener('keydown', stop, true);
      document.removeEventListener('pointerdown', stop, true);
    };
  }, []);
}
