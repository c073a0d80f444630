// Semi illustrations are ~3.5 KiB gzip each and only appear in empty, error and closed-site states,
// so each one is its own lazy chunk instead of weighing on the first screen.
import { Suspense, type ComponentType, type SVGProps } from 'react';
import { lazy } from './lazy';

type Svg = ComponentType<SVGProps<SVGSVGElement>>;

/** Where a picture's code could not come: the box that held its place stays empty. */
function NoPicture({ className }: SVGProps<SVGSVGElement>) {
  return <span className={className} style={{ display: 'inline-block' }} aria-hidden="true" />;
}

/**
 * A picture's chunk that fails to load (the site went down while the member was on it, or a new
 * release replaced the chunk) leaves the box empty: it is decorative, and a failed lazy import
 * would take the whole screen with it, the error state that meant to say 加载失败 included.
 */
const decorative = (load: () => Promise<{ default: Svg }>) => lazy(() => load().catch(() => ({ default: NoPicture })));

const illustrations = {
  construction: decorative(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationConstruction')),
  failure: decorative(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationFailure')),
  // Its picture has a + to add something: only where the empty state offers that (新建…).
  noContent: decorative(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNoContent')),
  // An empty box: nothing here, and nothing to add from this screen.
  noResult: decorative(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNoResult')),
  notFound: decorative(() => import('@douyinfe/semi-illustrations/lib/es/illustrations/IllustrationNotFound')),
};

export type IllustrationName = keyof typeof illustrations;

/** A decorative illustration; an empty box of the same size holds its place while it loads. */
export function Illustration({ name, className }: { name: IllustrationName; className?: string }) {
  const Svg = illustrations[name];
  return (
    <Suspense fallback={<NoPicture className={className} />}>
      <Svg className={className} aria-hidden="true" data-illustration={name} />
    </Suspense>
  );
}
