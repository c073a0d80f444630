import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { SUPER_USER_ID } from '../../../../shared/permissions';
import { session, sessionIsAdmin, type SessionSnapshot } from './session-store';

export interface SessionView extends SessionSnapshot {
  isAdmin: boolean;
}

/** The current session, re-rendering the component when it changes. */
export function useSession(): SessionView {
  useSignals();
  return { ...session.value, isAdmin: sessionIsAdmin.value };
}

/**
 * Whether the signed-in user may call the RPC at a permission path: held permissions, and the
 * super user, who passes every check (even for rows MOREDOC only creates on first use).
 */
export function usePermissionCheck(): (path: string) => boolean {
  const { permissions, user } = useSession();
  const superUser = user?.id === SUPER_USER_ID;
  return useMemo(() => {
    const held = new Set(permissions.map((p) => p.path));
    return (path: string) => superUser || held.has(path);
  }, [permissions, superUser]);
}
