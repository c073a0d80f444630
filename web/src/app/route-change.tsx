// What a page load gives a keyboard and a screen reader by itself, given on a move to another screen
// inside the app: the focus at the screen's <main> (the target of 跳到正文), the new title heard.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * When the path changes (not on the first screen, not when only the query or the hash does: a search
 * box or a pager keeps the focus), the focus goes to the page's <main>, unless something in it holds
 * the focus: what the new screen focused, or a link of a menu that stayed (the member area's, the
 * library's categories). It was on <body> (its link gone with the old screen) or in the header.
 */
function useFocusOnNewScreen(pathname: string): void {
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.querySelector<HTMLElement>('main');
    const focused = document.activeElement;
    if (!main || (focused && focused !== document.body && main.contains(focused))) return;
    main.focus({ preventScroll: true });
  }, [pathname]);
}

/**
 * The page's `title` in a polite live region once the address changed since the first screen (a
 * page load is read by itself), so that it is heard on each move, and again when it changes as the
 * screen's data comes or its query changes (a search's words, a list's page).
 */
export function RouteChange({ title }: { title: string }) {
  const { pathname, search } = useLocation();
  const address = pathname + search;
  const [firstAddress] = useState(address);
  const [moved, setMoved] = useState(false);
  if (!moved && address !== firstAddress) setMoved(true);
  useFocusOnNewScreen(pathname);
  return (
    <div role="status" className="app-visually-hidden">
      {moved ? title : ''}
    </div>
  );
}
