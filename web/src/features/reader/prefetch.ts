// The reader's first page should start loading with the page, not after a chain of calls:
// as soon as the route is known, ask for the document (in parallel with the reader's code),
// and once its hash is known, tell the browser to fetch the first page image with high
// priority. The reader then finds both ready.
import type { QueryClient } from '@tanstack/react-query';
import { DocumentStatus } from '../../../../shared/constants';
import { isCarriedFailure } from '../../api/query-client';
import { documentQuery } from '../document/api';
import { inlinedPage } from './inlined-pages';
import { pageImagePath } from '../../../../shared/page-image';

export function preloadImage(href: string): void {
  const preloads = document.head.querySelectorAll('link[rel="preload"]');
  if ([...preloads].some((link) => link.getAttribute('href') === href)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.setAttribute('fetchpriority', 'high');
  document.head.appendChild(link);
}

/** Starts loading document `id` and, when it is readable, its first page image. */
export function prefetchReader(queryClient: QueryClient, id: number): void {
  // The gateway's first screen (entry-server.tsx) has the document already, and no browser to tell.
  if (typeof document === 'undefined') return;
  const query = documentQuery(id);
  // The page carried its 404 (start data): the reader shows it, nobody asks again.
  if (isCarriedFailure(queryClient.getQueryState(query.queryKey)?.error)) return;
  void queryClient.fetchQuery(query).then(
    (doc) => {
      const first = doc.status === DocumentStatus.Converted ? pageImagePath(doc, 1) : undefined;
      // Not when the page carried it (inlined-pages.ts).
      if (first && !inlinedPage(first)) preloadImage(first);
    },
    // The reader shows the failure when it asks again.
    () => undefined,
  );
}
