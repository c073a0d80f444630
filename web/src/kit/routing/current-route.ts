import { useMatches } from 'react-router-dom';
import type { RouteDef } from '../../../../shared/routes';

/** What every screen route carries in its `handle`: its entry of the shared route table. */
export interface RouteHandle {
  route: RouteDef;
  /** the screen's file under web/ when its code is a chunk of its own (app/router.tsx) */
  file?: string;
}

/** The route table entry of the screen being shown and its parameters, if any. */
export function useCurrentPage(): { route: RouteDef; params: Record<string, string> } | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    const handle = match?.handle as RouteHandle | undefined;
    if (handle?.route)
      return {
        route: handle.route,
        params: Object.fromEntries(
          Object.entries(match!.params).filter((e): e is [string, string] => e[1] !== undefined),
        ),
      };
  }
  return undefined;
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
