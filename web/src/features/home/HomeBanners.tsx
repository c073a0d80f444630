import { useQuery } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { lazy } from '../../ui/lazy';
import { websiteBannersQuery } from '../banner/api';

const BannerCarousel = lazy(() => import('./BannerCarousel'));

const placeholder = <div className="app-home__banner-placeholder" aria-hidden="true" />;
const frame = (content: ReactNode) => <div className="app-home__banners">{content}</div>;

/** The website carousel (banner type 0); nothing when there is none or it cannot load. */
export function HomeBanners() {
  const { data: banners, isPending, isError } = useQuery(websiteBannersQuery());
  if (isPending) return frame(placeholder);
  if (isError || banners.length === 0) return null;
  return frame(
    <Suspense fallback={placeholder}>
      <BannerCarousel banners={banners} />
    </Suspense>,
  );
}
