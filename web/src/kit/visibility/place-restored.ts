// Whether a screen opens where the reader left it: the router puts back the place kept for it on
// a return inside the app (back, forward), on a reload or a return to a page the browser had
// unloaded. What a screen does only when it is opened (go to a link's #part, light it up, offer
// to resume reading) is not done then: it would move the reader, or the page under them, from
// that place. Where no place was kept (the tab's storage off or full), nothing is put back: the
// screen opens at its top, as when opened, and does what an opening does.
import { useContext } from 'react';
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  useLocation,
  useNavigationType,
  type Location,
  type NavigationType,
} from 'react-router-dom';

/**
 * The first address asked about in this page load, by router: the page's one (an app started
 * anew, as each of the tests' is, starts again).
 */
const firstLocations = new WeakMap<object, Location>();
/** The place put back for each address shown (null: none), decided as it is first asked about. */
const answers = new WeakMap<Location, number | null>();
/** The key outside a data router (the app has one). */
const noDataRouter = {};

/** Where React Router's ScrollRestoration keeps the places across page loads, in sessionStorage (its default key). */
export const PLACES_KEY = 'react-router-scroll-positions';

/**
 * Where a screen's scroll position is kept. Every page the browser loaded itself (an address
 * typed, a link from elsewhere, a reload) has the router's key `default`: keyed by it, a page
 * loaded so would open at the place where the one loaded before it in this tab was left (a
 * document in its middle, whose reader then keeps that page as the place to resume). Keyed by
 * its address instead, only a reload (or a return to it) opens where it was left.
 */
export function scrollKey(location: Pick<Location, 'key' | 'pathname' | 'search'>): string {
  return location.key === 'default' ? location.pathname + location.search : location.key;
}

/** The place the tab kept for `location` before this page load (a reload, a return to it), else null. */
function placeKept(location: Location): number | null {
  try {
    const places = JSON.parse(sessionStorage.getItem(PLACES_KEY) ?? '{}') as Record<string, unknown>;
    const place = places[scrollKey(location)];
    return typeof place === 'number' ? place : null;
  } catch {
    return null;
  }
}

/** The place the router puts back for the address it shows (a return inside the app with a place kept), else null. */
function routerPutsBack(router: object): number | null {
  const place = (router as { state?: { restoreScrollPosition?: unknown } }).state?.restoreScrollPosition;
  return typeof place === 'number' ? place : null;
}

/**
 * The window's scroll offset put back for `location`, or null where it is not a place put back:
 * a return inside the app (not a move to it, a link), or the page load where the browser reloaded
 * it or came back to it, where a place was kept for it.
 */
export function placePutBack(router: object, location: Location, navigation: NavigationType): number | null {
  if (!firstLocations.has(router)) firstLocations.set(router, location);
  if (navigation !== 'POP') return null;
  let answer = answers.get(location);
  if (answer === undefined) {
    answer =
      firstLocations.get(router) !== location
        ? routerPutsBack(router)
        : pageLoadRestoresPlace()
          ? placeKept(location)
          : null;
    answers.set(location, answer);
  }
  return answer;
}

/** Whether `location` is a place put back (`placePutBack`). */
export function placeRestored(router: object, location: Location, navigation: NavigationType): boolean {
  return placePutBack(router, location, navigation) !== null;
}

/** Whether the browser loaded this page by a reload or a return through the history (not anew). */
export function pageLoadRestoresPlace(): boolean {
  const entry = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type === 'reload' || entry?.type === 'back_forward';
}

/** The router of the screen (its key for `placeRestored`). */
export function useRouterKey(): object {
  return useContext(DataRouterContext)?.router ?? noDataRouter;
}

/** Whether the address shown now is a place put back (`placeRestored`). */
export function usePlaceRestored(): boolean {
  return usePlacePutBack() !== null;
}

/** The scroll offset put back for the address shown now (`placePutBack`). */
export function usePlacePutBack(): number | null {
  return placePutBack(useRouterKey(), useLocation(), useNavigationType());
}
