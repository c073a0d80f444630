// Whether a screen opens where the reader left it: the router puts back the place on a return
// inside the app (back, forward), the browser on a reload or a return to a page it had unloaded.
// What a screen does only when it is opened (go to a link's #part, light it up, offer to resume
// reading) is not done then: it would move the reader, or the page under them, from that place.
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
/** The key outside a data router (the app has one). */
const noDataRouter = {};

/**
 * Whether `location` is a place put back: a return inside the app (not a move to it, a link),
 * or the page load where the browser reloaded it or came back to it.
 */
export function placeRestored(router: object, location: Location, navigation: NavigationType): boolean {
  if (!firstLocations.has(router)) firstLocations.set(router, location);
  if (navigation !== 'POP') return false;
  if (firstLocations.get(router) !== location) return true;
  return pageLoadRestoresPlace();
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
  return placeRestored(useRouterKey(), useLocation(), useNavigationType());
}
