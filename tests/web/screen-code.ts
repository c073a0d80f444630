// The screen's code as the start of a test's waits. A screen is a lazy chunk, and the first visit of
// one in a test worker transforms its modules on demand (Semi's Table, Tree…): seconds on an idle
// machine, more than a findBy's 15 s on a loaded one, and no check of the screen can pass before it
// comes. So every wait (findBy, waitFor, user-event's actions) starts once the router of the app
// rendered has the code of the screen it goes to, and then has its whole time for what it checks.
//
// A lazy part inside a screen (web/src/ui/lazy.ts: an editor, a chart, a dialog) comes the same way, later:
// setup.ts has the parts counted (countedLazy), a wait starts once none is coming, and a wait that failed
// while a part was coming has its whole time again once it came.
import { lazy as reactLazy } from 'react';
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

/** Lazy parts whose code is coming, how many ever started, and who waits for none to be coming. */
let partsComing = 0;
let partsStarted = 0;
let partsCame: (() => void)[] = [];

/** web/src/ui/lazy.ts's `lazy` in the web tests (setup.ts): React's, counting the parts whose code is coming. */
export const countedLazy: typeof reactLazy = (load) =>
  reactLazy(() => {
    partsStarted += 1;
    partsComing += 1;
    const came = () => {
      partsComing -= 1;
      if (partsComing > 0) return;
      const waiting = partsCame;
      partsCame = [];
      for (const resolve of waiting) resolve();
    };
    const code = load();
    code.then(came, came);
    return code;
  });

/** Resolves once no lazy part's code is coming (at once when none is). */
export function lazyPartsLoaded(): Promise<void> {
  if (partsComing === 0) return Promise.resolve();
  return new Promise((resolve) => partsCame.push(resolve));
}

/** Marks the wrapper made here, with the one it wraps (the set-up runs again for each file of a worker). */
const WRAPS = Symbol.for('tests/web/screen-code wraps');

/**
 * Makes every wait of Testing Library (and user-event's) start once `screenCodeLoaded` and
 * `lazyPartsLoaded`. A wait that failed after a lazy part's code started coming (the part shown
 * during it) runs once more when it came, with its whole time: a check just checks again, and an
 * action of user-event's fails only on the test's own misuse, which it fails on again.
 */
export function waitsStartAfterScreenCode(): void {
  const current = getConfig().asyncWrapper as AsyncWrapper & { [WRAPS]?: AsyncWrapper };
  const inner = current[WRAPS] ?? current;
  const wrapper: AsyncWrapper = (wait) =>
    inner(async () => {
      await screenCodeLoaded();
      await lazyPartsLoaded();
      const started = partsStarted;
      try {
        return await wait();
      } catch (error) {
        if (partsStarted === started) throw error;
        await lazyPartsLoaded();
        return wait();
      }
    });
  configure({ asyncWrapper: Object.assign(wrapper, { [WRAPS]: inner }) });
}
