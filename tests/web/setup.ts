// Set-up of the `web` vitest project (happy-dom): React's act environment, a clean DOM and
// storage between tests.
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  document.head.querySelectorAll('[data-test-owned]').forEach((node) => node.remove());
});
