// What other modules may ask of the sitemap module: write the sitemaps now (ConfigAPI's
// UpdateSitemap). Changes of content reach it through `contentChanges` (refresh.ts).
export { writeSitemaps } from './files';
