// What other modules may ask of the sitemap module: write the sitemaps now (ConfigAPI's
// UpdateSitemap), or soon after they published, changed or removed content (by a job).
export { writeSitemaps } from './files';
export { scheduleSitemapRefresh } from './refresh';
