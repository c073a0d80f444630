import { Suspense, useEffect, useState } from 'react';
import { lazy } from '../../ui/lazy';

// The check (bowser) lives in a small chunk of its own, fetched a moment after the page has
// loaded, so it never competes with what the first screen needs (its images included). The
// banner (its chunk, Semi's Banner and Typography with their styles: nine files) is fetched
// only for a browser the check finds too old.
const UnsupportedBrowserNotice = lazy(() => import('./UnsupportedBrowserNotice'));

/** After the load event, before the check starts. */
export const CHECK_DELAY_MS = 2_000;

export function BrowserCheck() {
  const [unsupported, setUnsupported] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Unmounted before the delay ends: the timer is cleared and the check never starts.
    const check = () => {
      import('./browser-support')
        .then(({ isSupportedBrowser }) => {
          if (!cancelled && !isSupportedBrowser(navigator.userAgent)) setUnsupported(true);
        })
        // A chunk that cannot be fetched (a deploy replaced it) leaves the page as it is: the
        // notice is advice.
        .catch(() => undefined);
    };
    const wait = () => {
      timer = setTimeout(check, CHECK_DELAY_MS);
    };
    if (document.readyState === 'complete') wait();
    else window.addEventListener('load', wait, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', wait);
      clearTimeout(timer);
    };
  }, []);
  if (!unsupported) return null;
  return (
    <Suspense fallback={null}>
      <UnsupportedBrowserNotice />
    </Suspense>
  );
}
