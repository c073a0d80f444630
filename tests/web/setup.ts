// Set-up of the `web` vitest project (happy-dom): React's act environment, a clean DOM and
// storage between tests.
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The first visit of a lazy admin screen transforms its modules (Semi's Table, Tree…) on
// demand, which can take more than the default 1 s of findBy/waitFor on a busy machine
// (seconds more when another file transforms at the same time): a wait ends as soon as its
// element shows, so the limit is generous.
configure({ asyncUtilTimeout: 15_000 });

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
  window.localStorage.clear();
  window.sessionStorage.clear();
  // a test that faked timers or hid the tab (polling.ts) leaves real ones and a shown tab to the next
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});
