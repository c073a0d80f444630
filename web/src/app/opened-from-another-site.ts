// A page another site opened (a link to /search?wd=…) makes its searches as a visitor's (docs/decisions/121): the
// gateway says so in the start data (`openedFromAnotherSite`) and leaves the member's session off such a call of the
// SPA's that carries shared/writes.ts AS_VISITOR_HEADER. What the member searches once they moved on is their own.
import type { AppRouter } from './router';

/** True until the router's first move away from the screen the browser loaded (a new search is one). */
export function untilTheFirstMove(router: Pick<AppRouter, 'state' | 'subscribe'>): () => boolean {
  const loaded = router.state.location.key;
  let moved = false;
  const stop = router.subscribe((state) => {
    if (state.location.key === loaded) return;
    moved = true;
    stop();
  });
  return () => !moved;
}
