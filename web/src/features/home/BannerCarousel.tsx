import type { Banner } from '../../../../shared/types/banner';
import { Link } from 'react-router-dom';
import { IconChevronLeft, IconChevronRight } from '../../ui/icons';
import { Carousel } from '../../ui/semi-extra';

/** A site path (`/vip`) stays in this tab and in the SPA; an outside link opens a new tab. */
function isSitePath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/** Loaded on demand: only a home page with banners needs the carousel. */
export default function BannerCarousel({ banners }: { banners: readonly Banner[] }) {
  return (
    <Carousel
      className="app-home__carousel"
      autoPlay={{ interval: 5000, hoverToPause: true }}
      indicatorType="line"
      theme="dark"
      // Semi's arrows are named "Previous index" and "Next index" whatever the locale.
      arrowProps={{
        leftArrow: { children: <IconChevronLeft size="inherit" aria-label="上一张" /> },
        rightArrow: { children: <IconChevronRight size="inherit" aria-label="下一张" /> },
      }}
    >
      {banners.map((banner) => {
        const image = <img src={banner.path} alt={banner.title ?? ''} className="app-home__banner-image" />;
        return (
          <div key={banner.id} className="app-home__banner">
            {banner.url && isSitePath(banner.url) ? (
              <Link to={banner.url} aria-label={banner.title}>
                {image}
              </Link>
            ) : banner.url ? (
              <a href={banner.url} target="_blank" rel="noopener noreferrer" aria-label={banner.title}>
                {image}
              </a>
            ) : (
              image
            )}
          </div>
        );
      })}
    </Carousel>
  );
}
