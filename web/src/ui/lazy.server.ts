// ui/lazy.ts in the gateway's first screen: a lazy component never arrives there, so
// each shows its Suspense fallback, as in the browser's first render (see entry-server.tsx).
import { use, type ComponentType } from 'react';

const NEVER = new Promise<never>(() => undefined);

function StillComing(): never {
  return use(NEVER);
}

export function lazy<Props>(_load: () => Promise<{ default: ComponentType<Props> }>): ComponentType<Props> {
  return StillComing as ComponentType<Props>;
}
