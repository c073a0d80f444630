// Where a screen opens: React Router's ScrollRestoration (a move to a new screen at its top, a
// return or a reload where it was left), keyed for the pages the browser loads itself (loaded
// anew, one opens at its top), and kept off the place a visitor scrolled the gateway's first
// screen to before the app took it over.
import { useLayoutEffect, useState } from 'react';
import { ScrollRestoration } from 'react-router-dom';
import { PLACES_KEY, pageLoadRestoresPlace, scrollKey, usePlacePutBack } from '../kit/visibility/place-restored';

/**
 * A page the browser loaded anew (an address typed, a link followed from elsewhere; not a reload
 * nor a return through the history) opens at its top: the place this tab left its address at
 * before is forgotten before ScrollRestoration reads it. Keyed by address, it was restored, and a
 * document opened again so began where it was left, its 继续阅读 not offered, and a member's
 * place to resume (kept on the server, read on since on another device) overwritten with it.
 */
function forgetPlaceOfNewLoad(): void {
  try {
    if (pageLoadRestoresPlace()) return;
    const places = JSON.parse(sessionStorage.getItem(PLACES_KEY) ?? '{}') as Record<string, number>;
    const key = window.location.pathname + window.location.search;
    if (!(key in places)) return;
    delete places[key];
    sessionStorage.setItem(PLACES_KEY, JSON.stringify(places));
  } catch {
    // no navigation timing or no storage (off, full): a place kept stays as it was
  }
}

/** Set once the app took over the page the browser loaded: only that first screen keeps its place. */
let tookOver = false;

/**
 * ScrollRestoration, without its move to the top as the app takes over the page the browser
 * loaded: the browser opened that page at its top (or at its #part, which the router goes to)
 * already, and the gateway's first screen could be scrolled meanwhile. On a slow phone a visitor
 * reading it was sent back to the top, and a place left so before a reload was lost. A page
 * reloaded where it was left (or come back to) goes there, as the app takes it over: the router
 * says so only to a RouterProvider that listens, which it does after ScrollRestoration asked,
 * so that the place came back on a later change of the router's state, or never (a reader
 * reloaded at page 9 found page 1).
 */
export function AppScrollRestoration() {
  const putBack = usePlacePutBack();
  const [place] = useState(() => {
    if (tookOver || typeof window === 'undefined') return undefined;
    forgetPlaceOfNewLoad();
    return putBack ?? (window.location.hash ? undefined : window.scrollY);
  });
  // Runs after ScrollRestoration's effects (a child's come first), once, when mounted.
  useLayoutEffect(() => {
    tookOver = true;
    if (place !== undefined && window.scrollY !== place) window.scrollTo(0, place);
  }, [place]);
  return <ScrollRestoration getKey={scrollKey} />;
}
