// The waits of the web tests start once the screen's code has come (screen-code.ts): a first visit
// of a lazy screen, or of a lazy part inside it, that takes longer than a findBy's limit still finds
// what the screen shows.
import { Suspense, useState } from 'react';
import { expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { lazy } from '../../web/src/ui/lazy';
import { showRouter } from './screen-code';

/** A lazy part (web/src/ui/lazy.ts) whose code comes when the test says. */
function heldPart(name: string) {
  let codeCame: () => void = () => undefined;
  const code = new Promise<void>((resolve) => (codeCame = resolve));
  const Part = lazy(async () => {
    await code;
    return { default: () => <h2>{name}</h2> };
  });
  return { Part, codeCame };
}

/** Finds the heading `name` within 1 s, telling meanwhile whether it is still waiting. */
function findHeading(name: string) {
  const state = { outcome: 'waiting' };
  const found = screen.findByRole('heading', { name }, { timeout: 1_000 }).then(
    (heading) => ((state.outcome = 'found'), heading),
    (error: unknown) => ((state.outcome = 'failed'), Promise.reject(error)),
  );
  return { state, found };
}

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
  const { state, found } = findHeading('书单');
  await vi.advanceTimersByTimeAsync(5_000);
  expect(state.outcome).toBe('waiting');
  vi.useRealTimers();
  codeCame();
  expect((await found).textContent).toBe('书单');
});

it("starts a findBy's time once the code of a lazy part inside the screen has come", async () => {
  const { Part, codeCame } = heldPart('阅读器');
  render(
    <Suspense fallback={<p>正在加载…</p>}>
      <Part />
    </Suspense>,
  );
  vi.useFakeTimers();
  const { state, found } = findHeading('阅读器');
  await vi.advanceTimersByTimeAsync(5_000);
  expect(state.outcome).toBe('waiting');
  vi.useRealTimers();
  codeCame();
  expect((await found).textContent).toBe('阅读器');
});

it('gives a findBy its whole time again when a lazy part shown while it waited comes after its limit', async () => {
  const { Part, codeCame } = heldPart('图表');
  let showPart: () => void = () => undefined;
  function Screen() {
    const [shown, setShown] = useState(false);
    showPart = () => setShown(true);
    return <Suspense fallback={<p>正在加载…</p>}>{shown ? <Part /> : <p>统计</p>}</Suspense>;
  }
  render(<Screen />);
  vi.useFakeTimers();
  const { state, found } = findHeading('图表');
  // The part is shown (its code asked for) once the findBy is under way, then takes five times its limit.
  await vi.advanceTimersByTimeAsync(100);
  act(() => showPart());
  await vi.advanceTimersByTimeAsync(5_000);
  expect(state.outcome).toBe('waiting');
  vi.useRealTimers();
  codeCame();
  expect((await found).textContent).toBe('图表');
});
