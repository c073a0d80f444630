// Loaded lazily (bowser is ~7 KiB gzip): decides whether the browser meets docs/product.md §9's minimums.
import Bowser from 'bowser';
import { MIN_BROWSER_VERSIONS } from '../../../../shared/constants';

/** False only for a browser we recognise and know to be older than its minimum. */
export function isSupportedBrowser(userAgent: string, minimums = MIN_BROWSER_VERSIONS): boolean {
  if (!userAgent) return true;
  const tree: Record<string, string> = {};
  for (const [name, version] of Object.entries(minimums)) tree[name] = `>=${version}`;
  return Bowser.getParser(userAgent).satisfies(tree) !== false;
}
