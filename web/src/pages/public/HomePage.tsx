import { AdSlot } from '../../features/advertisement/AdSlot';
import { CategoryGrid } from '../../features/home/CategoryGrid';
import { CategoryDocuments } from '../../features/home/CategoryDocuments';
import { ForYouDocuments } from '../../features/home/ForYouDocuments';
import { FriendLinks } from '../../features/home/FriendLinks';
import { HomeBanners } from '../../features/home/HomeBanners';
import { HotDocuments } from '../../features/home/HotDocuments';
import { LatestDocuments } from '../../features/home/LatestDocuments';
import { RecommendedDocuments } from '../../features/home/RecommendedDocuments';
import { SiteStats } from '../../features/home/SiteStats';
import { SearchBox } from '../../features/search/SearchBox';
import { siteName, useSettings } from '../../features/settings/use-settings';
import './home.css';

/**
 * `/`: the site's name and logo with the search box and its recommended words, banners, the
 * category grid, recommended documents, 猜你喜欢 (members), the 热门文档 ranking's first places, each top-level category's
 * latest documents, the
 * latest documents, friend links.
 */
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
          <SearchBox size="large" recommended={system.recommend_words ?? []} />
          <SiteStats />
        </div>
        <HomeBanners />
      </section>
      <AdSlot slot="index_banner_bottom" />
      <AdSlot slot="index_category_top" />
      <CategoryGrid />
      <AdSlot slot="index_category_bottom" />
      <RecommendedDocuments />
      <ForYouDocuments />
      <HotDocuments />
      <CategoryDocuments />
      <LatestDocuments />
      <AdSlot slot="index_link_top" />
      <FriendLinks />
    </div>
  );
}
