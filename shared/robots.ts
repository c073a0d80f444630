// robots.txt: what crawlers should leave alone (the member, admin, sign-in and API paths, the
// signed download links) and where the sitemap is. The pages come from the route table, the
// same rule that gives them `noindex` (shared/page-head.ts).
import { routes, type PublicPageName, type RouteDef, type RouteOf } from './routes';

const NOT_PAGES = ['/api/', '/download/'];

/** The pages search engines list: every public page but the OAuth callback. */
export type IndexablePageName = Exclude<PublicPageName, 'oauth-callback'>;

/** Pages no search engine should list: member, admin and auth pages, the OAuth callback. */
export function isIndexable(route: RouteDef): route is RouteOf<IndexablePageName> {
  return route.access === 'public' && route.layout === 'default' && route.name !== 'oauth-callback';
}

/** The literal part of a route's path, before its first parameter. */
function literalPrefix(path: string): string {
  const brace = path.indexOf('{');
  return brace === -1 ? path : path.slice(0, brace).replace(/\/$/, '');
}

/** The paths robots.txt disallows, shortest first, none below another. */
export function disallowedPaths(): string[] {
  const prefixes = [...new Set(routes.filter((r) => !isIndexable(r)).map((r) => literalPrefix(r.path)))].sort(
    (a, b) => a.length - b.length,
  );
  const kept: string[] = [];
  for (const prefix of prefixes) if (!kept.some((k) => prefix === k || prefix.startsWith(`${k}/`))) kept.push(prefix);
  return [...kept, ...NOT_PAGES];
}

/** robots.txt; `sitemapOrigin` names the sitemap, left out while there is none (no site domain). */
export function robotsTxt(sitemapOrigin: string | undefined): string {
  const sitemap = sitemapOrigin ? ['', `Sitemap: ${sitemapOrigin}/sitemap.xml`] : [];
  return ['User-agent: *', ...disallowedPaths().map((p) => `Disallow: ${p}`), 'Allow: /', ...sitemap, ''].join('\n');
}
