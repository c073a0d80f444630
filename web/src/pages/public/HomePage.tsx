import { CategoryGrid } from '../../features/home/CategoryGrid';
import { FriendLinks } from '../../features/home/FriendLinks';
import { HomeBanners } from '../../features/home/HomeBanners';
import { LatestDocuments } from '../../features/home/LatestDocuments';
import { SiteStats } from '../../features/home/SiteStats';
import { siteName, useSettings } from '../../features/settings/use-settings';
import './home.css';

/** `/`: the site's name and logo, banners, the category grid, latest documents, friend links. */
export function HomePage() {
  const settings = useSettings();
  const system = settings.system ?? {};
  return (
    <div className="app-container app-home">
      <section className="app-home__hero">
        <div className="app-home__intro">
          {system.logo ? <img src={system.logo} alt={`${siteName(settings)} Logo`} className="app-home__logo" /> : null}
          <h1 className="app-home__sitename">{siteName(settings)}</h1>
          {system.description && <p className="app-home__description">{system.description}</p>}
          <SiteStats />
        </div>
        <HomeBanners />
      </section>
      <CategoryGrid />
      <LatestDocuments />
      <FriendLinks />
    </div>
  );
}
