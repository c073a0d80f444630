// Screens ask the server again about what changes by itself (a conversion, a payment), every
// few seconds. A test fakes setInterval alone (the timers keep running in real time, Date is
// untouched) and brings that next ask forward instead of waiting for it; it may hide the tab,
// which React Query's polling heeds.
import { act, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { CONVERSION_POLL } from '../../web/src/features/document/conversion';

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

/**
 * Checks that a screen following a conversion (decision 047) asks less and less often, and not while the
 * tab is hidden: `asks()` counts its asks so far, which must be 1 when called. Each wait is twice the one
 * before (3 s, 6 s, 12 s, 24 s), then 30 s at most: from the second on, half of each passes without an
 * ask. Hidden, the tab is not asked about; shown again, it asks at once (7 asks in all).
 */
export async function expectConversionPolling(asks: () => number): Promise<void> {
  await waitFor(() => expect(asks()).toBe(1));
  let wait: number = CONVERSION_POLL.firstMs;
  for (let asked = 2; asked <= 6; asked += 1) {
    if (asked > 2) {
      await nextPoll(wait / 2);
      expect(asks()).toBe(asked - 1);
    }
    await nextPoll(asked > 2 ? wait / 2 : wait);
    await waitFor(() => expect(asks()).toBe(asked));
    wait = Math.min(wait * 2, CONVERSION_POLL.maxMs);
  }
  expect(wait).toBe(CONVERSION_POLL.maxMs);
  setTabHidden(true);
  await nextPoll(CONVERSION_POLL.maxMs * 3);
  expect(asks()).toBe(6);
  setTabHidden(false);
  await waitFor(() => expect(asks()).toBe(7));
}
