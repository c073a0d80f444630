// Search-engine and other crawlers get no error page (SPEC §8); bowser is not needed for this.
const BOT_PATTERN =
  /bot\b|bot\/|crawl|spider|slurp|bingpreview|facebookexternalhit|mediapartners|yandex|sogou|bytespider|headlesschrome\/.*lighthouse/i;

export function isBot(userAgent: string | undefined): boolean {
  return !!userAgent && BOT_PATTERN.test(userAgent);
}
