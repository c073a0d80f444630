import { StrictMode } from 'react';
import { UNAVAILABLE_PAGE_ATTRIBUTE } from '../../shared/constants';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { api } from './api/client';
import { createQueryClient } from './api/query-client';
import { AppProviders } from './app/AppProviders';
import { boot } from './app/boot';
import { createAppRouter, type AppRouter } from './app/router';
import { keepInlinedPages } from './features/reader/inlined-pages';
import { handleUnauthorized } from './app/unauthorized';
import { untilTheFirstMove } from './app/opened-from-another-site';
import { followOtherTabsSession } from './features/session/session-actions';

/** The gateway rendered the first screen into the page (crawler content does not count). */
function hasFirstScreen(container: HTMLElement): boolean {
  const first = container.firstElementChild;
  return !!first && !first.hasAttribute('data-crawler');
}

/** Resolves once the router has the first route's code and loaders done. */
function routerReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  // The gateway's page that says the site is unavailable (its 重试 loads the address again):
  // the app has no start data to start with, and would show a site without its name, or a
  // member as a visitor sent to the login page.
  if (container.querySelector(`[${UNAVAILABLE_PAGE_ATTRIBUTE}]`)) return;
  // The images the gateway's first screen carries, before the router's loaders would ask for
  // them and React replaces the screen: the reader shows them without fetching them again.
  keepInlinedPages(container);
  const queryClient = createQueryClient();
  const startData = await boot(queryClient);
  const router = createAppRouter(queryClient);
  api.configure({
    onUnauthorized: (call) => handleUnauthorized(router, call),
    // The first screen's searches when the page came without them (its route data late).
    ...(startData.openedFromAnotherSite ? { recordsAsVisitor: untilTheFirstMove(router) } : {}),
  });
  followOtherTabsSession(() => router.revalidate(), queryClient);
  // The gateway's first screen is on show (gateway/first-screen.ts): it stays until the
  // screen's code is here, and React then replaces it with the same screen, not a spinner.
  if (hasFirstScreen(container)) await routerReady(router);
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
