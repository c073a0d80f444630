// Semi illustrations are ~3.5 KiB gzip each and only appear in empty, error and closed-site states,
// so each one is its own lazy chunk instead of weighing on the first screen.
import { Suspense } from 'react';
import { lazy } from './lazy';

const illustrations = {
  construction: lazy(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationConstruction')),
  failure: lazy(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationFailure')),
  noContent: lazy(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNoContent')),
  notFound: lazy(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNotFound')),
};

export type IllustrationName = keyof typeof illustrations;

/** A decorative illustration; an empty box of the same size holds its place while it loads. */
export function Illustration({ name, className }: { name: IllustrationName; className?: string }) {
  const Svg = illustrations[name];
  return (
    <Suspense fallback={<span className={className} style={{ display: 'inline-block' }} aria-hidden="true" />}>
      <Svg className={className} aria-hidden="true" data-illustration={name} />
    </Suspense>
  );
}
