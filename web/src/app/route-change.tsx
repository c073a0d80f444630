// What a page load gives a keyboard and a screen reader by itself, given on a move to another screen
// inside the app: the focus at the screen's <main> (the target of 跳到正文), the new title heard.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * When the path changes (not on the first screen, not when only the query or the hash does: a search
 * box or a pager keeps the focus), the focus goes to the page's <main>, unless something in it holds
 * the focus: what the new screen focused, or a link of a menu that stayed (the member area's, the
 * library's categories). It was on <body> (its link gone with the old screen) or in the header. A
 * move that left the focus on <body> goes there too whatever changed (退出登录 on the home page:
 * the user menu went with it).
 */
function useFocusOnNewScreen(pathname: string, key: string, arrived: boolean): void {
  const shown = useRef(arrived ? { pathname: '', key: '' } : { pathname, key });
  useEffect(() => {
    const was = shown.current;
    if (was.key === key) return;
    shown.current = { pathname, key };
    const main = document.querySelector<HTMLElement>('main');
    const focused = document.activeElement;
    const lost = !focused || focused === document.body;
    if (!main || (!lost && (was.pathname === pathname || main.contains(focused)))) return;
    main.focus({ preventScroll: true });
  }, [pathname, key]);
}

/** The router's key of the screen the browser loaded: any other screen came by a move inside the app. */
let loadedKey: string | undefined;

/**
 * The page's `title` in a polite live region once the address changed since the first screen (a
 * page load is read by itself), so that it is heard on each move, and again when it changes as the
 * screen's data comes or its query changes (a search's words, a list's page). A screen that takes
 * the place of the whole app (the error screen) renders its own: mounted by a move inside the app,
 * it is itself that move's new screen.
 */
export function RouteChange({ title }: { title: string }) {
  const { pathname, search, key } = useLocation();
  const address = pathname + search;
  const [arrived] = useState(() => {
    if (typeof document === 'undefined') return false;
    loadedKey ??= key;
    return key !== loadedKey;
  });
  const [firstAddress] = useState(arrived ? '' : address);
  const [moved, setMoved] = useState(arrived);
  if (!moved && address !== firstAddress) setMoved(true);
  useFocusOnNewScreen(pathname, key, arrived);
  // data-location: the address whose screen is drawn, committed with it. Browser tests wait for it
  // after a move (the screen before stays until the router has the next one's code). Not on the
  // first screen, so that the gateway's render, which has no such attribute, matches it.
  // data-route-change: the region itself, in the gateway's render too. Browser tests move only once the app's own is
  // mounted: on a screen the gateway does not draw (the admin's), React shows the router's loading screen until the
  // screen's code came, and a RouteChange first mounted after a move takes its screen for the loaded one.
  return (
    <div role="status" className="app-visually-hidden" data-route-change="" data-location={moved ? address : undefined}>
      {moved ? title : ''}
    </div>
  );
}
