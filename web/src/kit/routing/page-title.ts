// A screen whose title comes from its data (a document's title) names itself here; the
// document head shows it instead of the route's title while the screen is open.
import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';

const pageTitle = signal<string | undefined>(undefined);

/** Titles the page `title` while the calling screen is mounted (nothing while undefined). */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    pageTitle.value = title;
    return () => {
      pageTitle.value = undefined;
    };
  }, [title]);
}

/** The title the open screen chose, if any. */
export function usePageTitleOverride(): string | undefined {
  useSignals();
  return pageTitle.value;
}
