// HTTP helpers shared by every plugin of the gateway: the method classes and the few ways
// it takes a request URL apart.

/** Methods that change nothing (RFC 9110 §9.2.1): no CSRF check, no cache dropped. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Methods that change state: checked for CSRF, and make cached data stale. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A request target as its path and its query (with the `?`, or ''). */
export function splitUrl(url: string): [path: string, query: string] {
  const q = url.indexOf('?');
  return q === -1 ? [url, ''] : [url.slice(0, q), url.slice(q)];
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** `path` is `prefix` or below it, segment-wise: `/api/v1` is under `/api`, `/apis` is not. */
export function isUnder(path: string, prefix: string): boolean {
  return path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 47 /* / */);
}
