// Screens ask the server again about what changes by itself (a conversion, a payment), every
// few seconds. A test fakes setInterval alone (the timers keep running in real time, Date is
// untouched) and brings that next ask forward instead of waiting for it; it may hide the tab,
// which React Query's polling heeds.
import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** From now until the test ends (setup.ts restores the timers): setInterval is the fake clock's. */
export function fakePolling(): void {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true });
}

/** Moves the intervals `ms` ahead (the screens' 2 s by default): a poll due by then runs now. */
export async function nextPoll(ms = 2_000): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** Hides the tab (`document.visibilityState`) or shows it again, telling the page as a browser does. */
export function setTabHidden(hidden: boolean): void {
  if (hidden) Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  else Reflect.deleteProperty(document, 'visibilityState');
  act(() => void window.dispatchEvent(new Event('visibilitychange')));
}
