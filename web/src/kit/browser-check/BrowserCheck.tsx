import { Suspense, useEffect, useState } from 'react';
import { lazy } from '../../ui/lazy';

// bowser and the banner live in their own chunk, fetched a moment after the page has
// loaded, so they never compete with what the first screen needs (its images included).
const UnsupportedBrowserNotice = lazy(() => import('./UnsupportedBrowserNotice'));

/** After the load event, before the check starts. */
export const CHECK_DELAY_MS = 2_000;

export function BrowserCheck() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = () => {
      timer = setTimeout(() => setReady(true), CHECK_DELAY_MS);
    };
    if (document.readyState === 'complete') wait();
    else window.addEventListener('load', wait, { once: true });
    return () => {
      window.removeEventListener('load', wait);
      clearTimeout(timer);
    };
  }, []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <UnsupportedBrowserNotice />
    </Suspense>
  );
}
