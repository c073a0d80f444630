import { lazy, Suspense } from 'react';

// bowser and the banner live in their own chunk, fetched after the first screen.
const UnsupportedBrowserNotice = lazy(() => import('./UnsupportedBrowserNotice'));

export function BrowserCheck() {
  return (
    <Suspense fallback={null}>
      <UnsupportedBrowserNotice />
    </Suspense>
  );
}
