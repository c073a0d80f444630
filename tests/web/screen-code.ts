// The screen's code as the start of a test's waits. A screen is a lazy chunk, and the first visit of
// one in a test worker transforms its modules on demand (Semi's Table, Tree…): seconds on an idle
// machine, more than a findBy's 15 s on a loaded one, and no check of the screen can pass before it
// comes. So every wait (findBy, waitFor, user-event's actions) starts once the router of the app
// rendered has the code of the screen it goes to, and then has its whole time for what it checks.
import { configure, getConfig } from '@testing-library/react';
import type { createMemoryRouter } from 'react-router-dom';

type Router = ReturnType<typeof createMemoryRouter>;
type AsyncWrapper = ReturnType<typeof getConfig>['asyncWrapper'];

/** The router of the app the running test rendered (renderApp's), if any. */
let shown: Router | undefined;

export function showRouter(router: Router): void {
  shown = router;
}

/** Called after each test: the next test's waits do not wait on this one's router. */
export function forgetRouter(): void {
  shown = undefined;
}

/**
 * Resolves once the router shown has the code of its screen: started, and no navigation loading
 * (the routes' loaders are synchronous guards, so a navigation that loads waits only on code).
 */
export function screenCodeLoaded(): Promise<void> {
  const router = shown;
  if (!router) return Promise.resolve();
  const loaded = () => router.state.initialized && router.state.navigation.state === 'idle';
  if (loaded()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe(() => {
      if (!loaded()) return;
      unsubscribe();
      resolve();
    });
  });
}

/** Marks the wrapper made here, with the one it wraps (the set-up runs again for each file of a worker). */
const WRAPS = Symbol.for('tests/web/screen-code wraps');

/** Makes every wait of Testing Library (and user-event's) start once `screenCodeLoaded`. */
export function waitsStartAfterScreenCode(): void {
  const current = getConfig().asyncWrapper as AsyncWrapper & { [WRAPS]?: AsyncWrapper };
  const inner = current[WRAPS] ?? current;
  const wrapper: AsyncWrapper = (wait) =>
    inner(async () => {
      await screenCodeLoaded();
      return wait();
    });
  configure({ asyncWrapper: Object.assign(wrapper, { [WRAPS]: inner }) });
}
