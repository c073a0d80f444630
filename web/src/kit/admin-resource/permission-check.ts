// Which actions a resource screen offers depends on the signed-in user's permissions, which
// the kit does not know: the admin layout provides the check from the session.
import { createContext, useContext } from 'react';

/**
 * Whether the user may call the RPC at a permission path (`/api.v1.<Service>/<Rpc>`). Without
 * a provider nothing that names a permission is offered (the backend would refuse it anyway).
 */
export const PermissionCheck = createContext<(path: string) => boolean>(() => false);

/** The check for an action's `requires`: an action that names no permission is always offered. */
export function useMayCall(): (path: string | undefined) => boolean {
  const holds = useContext(PermissionCheck);
  return (path) => path === undefined || holds(path);
}
