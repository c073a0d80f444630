// Session state of docs/product.md §3/§4 in signals, persisted in localStorage: the user, their
// permissions, the admin pages they may open, and whether they are logged in. The token
// itself stays in the gateway's httpOnly cookie and never reaches this code.
import { computed, effect, signal } from '@preact/signals-react';
import { allowPagesFrom, isAdmin } from '../../../../shared/permissions';
import type { Permission } from '../../../../shared/types/permission';
import type { SessionEnd } from '../../../../shared/session-end';
import type { User } from '../../../../shared/types/user';

export const SESSION_STORAGE_KEY = 'moredoc.session';

export interface SessionSnapshot {
  loggedIn: boolean;
  user: User | null;
  permissions: Permission[];
  allowPages: string[];
}

const EMPTY: SessionSnapshot = { loggedIn: false, user: null, permissions: [], allowPages: [] };

export const session = signal<SessionSnapshot>(EMPTY);
/**
 * Why the server refused the session of a signed-in member (a 401), else null: the screen stays as
 * it is, with what was typed in it, while a dialog says why and asks them to sign in again
 * (app/unauthorized.ts, docs/decisions/079).
 */
export const sessionEnded = signal<SessionEnd | null>(null);
export const sessionIsAdmin = computed(() => isAdmin(session.value.allowPages));

function isSnapshot(value: unknown): value is SessionSnapshot {
  const v = value as Partial<SessionSnapshot> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.loggedIn === 'boolean' &&
    Array.isArray(v.permissions) &&
    Array.isArray(v.allowPages) &&
    (v.user === null || typeof v.user === 'object')
  );
}

export function readStoredSession(storage: Storage | undefined): SessionSnapshot {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(SESSION_STORAGE_KEY) ?? 'null');
    return isSnapshot(parsed) ? parsed : EMPTY;
  } catch {
    return EMPTY;
  }
}

let stopPersisting: (() => void) | undefined;

/** Restores the stored session and writes every later change back to `storage`. */
export function initSession(storage: Storage | undefined = globalThis.localStorage): void {
  stopPersisting?.();
  session.value = readStoredSession(storage);
  stopPersisting = effect(() => {
    const snapshot = session.value;
    try {
      storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(snapshot));
    } catch {
      // Storage full or disabled (private mode): the session still lives in memory.
    }
  });
}

let stopFollowing: (() => void) | undefined;

/**
 * Takes up the session that another tab of the site stores (`storage` events reach only the
 * others; they share the cookie): signed out there, this tab is signed out too, and signed in
 * there, it is no longer asked to sign in again. `onChange` runs after, with the session this tab
 * had before (the router's guards, which send a member screen left signed out to the login page).
 */
export function followOtherTabs(
  onChange: (previous: SessionSnapshot) => void,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  stopFollowing?.();
  if (!storage || typeof window === 'undefined') return;
  const listener = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY || event.storageArea !== storage) return;
    const stored = readStoredSession(storage);
    const previous = session.peek();
    if (JSON.stringify(stored) === JSON.stringify(previous)) return;
    session.value = stored;
    if (stored.loggedIn) sessionEnded.value = null;
    onChange(previous);
  };
  window.addEventListener('storage', listener);
  stopFollowing = () => window.removeEventListener('storage', listener);
}

/** Logged in (register, login, OAuth or a valid cookie at start): the user, permissions to follow. */
export function signIn(user: User): void {
  session.value = { ...session.value, loggedIn: true, user };
}

/** docs/product.md §4: the permission list and the pages of every group whose list permission is held. */
export function setPermissions(permissions: Permission[]): void {
  session.value = { ...session.value, permissions, allowPages: allowPagesFrom(permissions) };
}

/** Logout, a failed current-user fetch or a 401: all four cleared. */
export function clearSession(): void {
  session.value = EMPTY;
}

export function setUser(user: User): void {
  session.value = { ...session.value, user };
}

/** A successful profile update merges the submitted fields into the stored user. */
export function mergeUser(fields: Partial<User>): void {
  const user = session.value.user;
  if (!user) return;
  session.value = { ...session.value, user: { ...user, ...fields } };
}
