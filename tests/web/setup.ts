// Set-up of the `web` vitest project (happy-dom): React's act environment, a clean DOM and
// storage between tests.
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { forgetRouter, waitsStartAfterScreenCode } from './screen-code';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// A wait starts once the screen's code has come, however long the first visit of a lazy screen takes to
// transform it (screen-code.ts); then what it waits for (a list's rows, a dialog) may still come after
// the default 1 s of findBy/waitFor on a busy machine: a wait ends as soon as its element shows, so the
// limit is generous.
configure({ asyncUtilTimeout: 15_000 });
waitsStartAfterScreenCode();
// The lazy parts inside screens counted, so that a wait starts once their code came too.
vi.mock('../../web/src/ui/lazy', async () => ({ lazy: (await import('./screen-code')).countedLazy }));

// happy-dom has no canvas; Semi's package entry loads lottie-web, which draws on a 2D context
// at import time. A context whose every method does nothing is enough.
const noop = () => undefined;
const fakeContext = new Proxy({} as Record<string | symbol, unknown>, {
  get: (target, key) => (key in target ? target[key] : noop),
  set: (target, key, value) => {
    target[key] = value;
    return true;
  },
});
HTMLCanvasElement.prototype.getContext = (() => fakeContext) as unknown as HTMLCanvasElement['getContext'];

afterEach(() => {
  cleanup();
  forgetRouter();
  window.localStorage.clear();
  window.sessionStorage.clear();
  // a test that faked timers or hid the tab (polling.ts) leaves real ones and a shown tab to the next
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});
