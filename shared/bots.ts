// Search-engine and other crawlers (docs/product.md §8: they get no error page). The gateway gives them a
// plain page for a missing document; the SPA leaves its error screen out for them.
const BOT_PATTERN =
  /bot\b|bot\/|crawl|spider|slurp|bingpreview|facebookexternalhit|mediapartners|yandex|sogou|bytespider|headlesschrome\/.*lighthouse/i;

export function isBot(userAgent: string | undefined): boolean {
  return !!userAgent && BOT_PATTERN.test(userAgent);
}
