// HTTP helpers shared by every plugin of the gateway: the method classes, the few ways it
// takes a request URL apart, and the origin of the site a request was sent to.
import type { FastifyRequest } from 'fastify';

/**
 * The safe methods of RFC 9110 §9.2.1. Which calls change state is shared/writes.ts: a few
 * MOREDOC RPCs are GETs that spend (the downloads).
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

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
  return path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 47); /* / */
}

/** `application/json`, or a JSON subtype like `application/merge-patch+json`, with any parameters. */
export function isJsonType(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType);
}

/** `multipart/form-data`, with any parameters (the boundary). */
export function isMultipartType(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^multipart\/form-data\s*(?:;|$)/i.test(contentType);
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;
// What a path must contain for its canonical form to differ: an escape, a backslash, an
// empty segment, a dot segment.
const MAY_CHANGE = /%|\\|\/\/|\/\.\.?(?:\/|$)/;

/**
 * The path as a server routes it (RFC 3986 §6.2.2): escapes of unreserved characters
 * decoded (`%6c` is `l`; find-my-way and grpc-gateway decode them before matching), a
 * backslash read as a slash and `.`/`..` segments resolved (undici's WHATWG URL parser
 * does both, `%2e` included, on the way to the backend), empty segments dropped. Other
 * escapes (`%2F`, non-ASCII) and a trailing slash stay as they are.
 */
export function canonicalPath(path: string): string {
  if (!MAY_CHANGE.test(path)) return path;
  const decoded = path.replace(/\\/g, '/').replace(PERCENT_ESCAPE, (escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
  const parts = decoded.split('/');
  const segments: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const segment = parts[i]!;
    if (segment === '..') segments.pop();
    if (segment !== '' && segment !== '.' && segment !== '..') segments.push(segment);
    else if (i === parts.length - 1) segments.push('');
  }
  return `/${segments.join('/')}`;
}

/** A request target with its path in canonical form, its query kept and its fragment dropped. */
export function canonicalUrl(url: string): string {
  if (!url.startsWith('/')) return url;
  const hash = url.indexOf('#');
  const [path, query] = splitUrl(hash === -1 ? url : url.slice(0, hash));
  const canonical = canonicalPath(path);
  return hash === -1 && canonical === path ? url : canonical + query;
}

const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Where the site is, for absolute URLs (canonical links, robots.txt): PUBLIC_ORIGIN, else the
 * origin the request was sent to (a Host header that is no host name counts as localhost).
 */
export function pageOrigin(request: FastifyRequest, publicOrigin: string | undefined): string {
  if (publicOrigin) return publicOrigin;
  const host = request.host;
  return `${request.protocol}://${HOST.test(host) ? host.toLowerCase() : 'localhost'}`;
}
