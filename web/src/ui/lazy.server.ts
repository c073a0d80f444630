// ui/lazy.ts in the gateway's first screen: a lazy component never arrives there, so
// each shows its Suspense fallback, as in the browser's first render (see entry-server.tsx).
import { use, type ComponentType } from 'react';

/**
 * Never settles, and keeps none of the callbacks React gives it: a promise that never settled
 * kept them all, and through them every render that had waited on it (about 55 KB a page, the
 * render thread's heap growing without end).
 */
const NEVER = { then: () => undefined } as unknown as Promise<never>;

function StillComing(): never {
  return use(NEVER);
}

export function lazy<Props>(_load: () => Promise<{ default: ComponentType<Props> }>): ComponentType<Props> {
  return StillComing as ComponentType<Props>;
}
