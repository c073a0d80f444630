// A screen whose title is its content (an article) names itself: the document head shows
// that instead of the route table's title while the screen is mounted.
import { useEffect, useSyncExternalStore } from 'react';

let current: string | undefined;
const listeners = new Set<() => void>();

function setPageTitle(title: string | undefined): void {
  current = title;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Names the page while the calling screen is mounted (undefined: the route's own title). */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    setPageTitle(title);
    return () => setPageTitle(undefined);
  }, [title]);
}

/** The title a screen gave its page, if any. */
export function usePageTitleOverride(): string | undefined {
  return useSyncExternalStore(subscribe, () => current, () => undefined);
}
