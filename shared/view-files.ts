// Document pages and covers (`/view/page/*`, `/view/cover/*`) answered in process: the
// embedded backend's page routes (backend/modules/document/page-routes.ts) hand their answer
// to the gateway (gateway/view-files.ts) instead of sending it over loopback HTTP. `Stream`
// is the stored file's stream, Node's Readable on both sides (shared/ names no Node type).

/** What of a request the page routes read: the headers the backend would have got. */
export interface ViewFileRequest {
  /** the Authorization header (a Bearer token, or nothing) */
  authorization: string | undefined;
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
  /** the Range header: one range of the stored bytes (none is served of an inflated page) */
  range?: string | undefined;
  ifRange?: string | undefined;
}

/** An answer of the page routes, as they would have sent it over HTTP. */
export interface ViewFileAnswer<Stream> {
  status: number;
  headers: Record<string, string>;
  /** a JSON or text body, the stored file, or nothing (304) */
  body: string | Stream | null;
}

/**
 * The page routes' answer for a page or cover URL; null for a URL of another shape
 * (escapes, a bad hash, a trailing slash), which the gateway then asks over HTTP, so that
 * the router's own reading of odd paths stays the only one.
 */
export type ViewFiles<Stream> = (url: string, request: ViewFileRequest) => Promise<ViewFileAnswer<Stream>> | null;
