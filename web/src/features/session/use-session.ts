import { useSignals } from '@preact/signals-react/runtime';
import { session, sessionIsAdmin, type SessionSnapshot } from './session-store';

export interface SessionView extends SessionSnapshot {
  isAdmin: boolean;
}

/** The current session, re-rendering the component when it changes. */
export function useSession(): SessionView {
  useSignals();
  return { ...session.value, isAdmin: sessionIsAdmin.value };
}
