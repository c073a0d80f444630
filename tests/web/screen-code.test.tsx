// The waits of the web tests start once the screen's code has come (screen-code.ts): a first visit
// of a lazy screen that takes longer than a findBy's limit still finds what the screen shows.
import { expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { showRouter } from './screen-code';

it("starts a findBy's time once the screen's code has come, however long it took", async () => {
  let codeCame: () => void = () => undefined;
  const code = new Promise<void>((resolve) => (codeCame = resolve));
  const router = createMemoryRouter([
    {
      path: '/',
      HydrateFallback: () => <p>正在加载…</p>,
      lazy: async () => {
        await code;
        return { Component: () => <h1>书单</h1> };
      },
    },
  ]);
  showRouter(router);
  render(<RouterProvider router={router} />);
  // The code takes (on the fake clock) five times the findBy's limit to come.
  vi.useFakeTimers();
  let outcome = 'waiting';
  const found = screen.findByRole('heading', { name: '书单' }, { timeout: 1_000 }).then(
    (heading) => ((outcome = 'found'), heading),
    (error: unknown) => ((outcome = 'failed'), Promise.reject(error)),
  );
  await vi.advanceTimersByTimeAsync(5_000);
  expect(outcome).toBe('waiting');
  vi.useRealTimers();
  codeCame();
  expect((await found).textContent).toBe('书单');
});
