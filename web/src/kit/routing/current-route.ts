import { useMatches } from 'react-router-dom';
import type { RouteDef } from '../../../../shared/routes';

/** What every screen route carries in its `handle`: its entry of the shared route table. */
export interface RouteHandle {
  route: RouteDef;
}

/** The route table entry of the screen being shown, if any. */
export function useCurrentRoute(): RouteDef | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.route) return handle.route;
  }
  return undefined;
}
