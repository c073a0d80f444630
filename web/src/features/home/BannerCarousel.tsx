import type { Banner } from '../../../../shared/types/banner';
import { Carousel } from '../../ui/semi';

/** Loaded on demand: only a home page with banners needs the carousel. */
export default function BannerCarousel({ banners }: { banners: readonly Banner[] }) {
  return (
    <Carousel className="app-home__carousel" autoPlay={{ interval: 5000, hoverToPause: true }} indicatorType="line" theme="dark">
      {banners.map((banner) => {
        const image = <img src={banner.path} alt={banner.title ?? ''} className="app-home__banner-image" />;
        return (
          <div key={banner.id} className="app-home__banner">
            {banner.url ? (
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
