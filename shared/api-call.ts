// A GET call of the API as a first screen makes it: the react-query key its screen keeps the
// answer under, the path and query, and what the screen keeps of the answer's body. Declared
// once, here, so that the gateway (which makes the call for the page it serves and inlines
// the answer) and the SPA (which makes it when the page did not carry it) key and shape the
// data alike.
import type { ApiFailure } from './api-failure';

export type ApiQueryValue = string | number | boolean | readonly (string | number | boolean)[];

export interface ApiCall<T = unknown> {
  readonly key: readonly unknown[];
  readonly path: string;
  readonly query: Readonly<Record<string, ApiQueryValue>>;
  /** What the screen keeps of a 200 answer's body. */
  readonly select: (body: unknown) => T;
  /** A 404 of this call means that the page's subject does not exist: the page answers 404. */
  readonly subject?: boolean;
  /** What a 404 of this call stands for (none, rather than an error), wherever it is made. */
  readonly whenMissing?: T;
}

export interface ApiCallDef<Body, T> {
  key: readonly unknown[];
  path: string;
  query?: Readonly<Record<string, ApiQueryValue>>;
  select: (body: Body) => T;
  subject?: boolean;
  whenMissing?: T;
}

/** Declares a call; `Body` is the wire type of the answer (an empty body reads as `{}`). */
export function apiCall<Body extends object, T>(def: ApiCallDef<Body, T>): ApiCall<T> {
  return {
    key: def.key,
    path: def.path,
    query: def.query ?? {},
    select: (body) => def.select((body ?? {}) as Body),
    ...(def.subject ? { subject: true } : {}),
    ...(def.whenMissing !== undefined ? { whenMissing: def.whenMissing } : {}),
  };
}

/** `/api/v1/x?id=1&id=2&wd=y`: arrays as repeated keys (docs/moredoc.md §3), keys in declaration order. */
export function callUrl(call: Pick<ApiCall, 'path' | 'query'>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(call.query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(item))}`);
    }
  }
  return parts.length ? `${call.path}?${parts.join('&')}` : call.path;
}

/** A key as react-query hashes it: JSON with the keys of plain objects sorted. */
export function hashCallKey(key: readonly unknown[]): string {
  return JSON.stringify(key, (_name, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/** Answers of calls by key, as a page carries them (`StartData.routeData`). */
export interface CallAnswer {
  key: readonly unknown[];
  data: unknown;
}

/**
 * A call of a page that failed for good, as a page carries it (`StartData.routeFailures`): its
 * subject's 404. The app keeps the failure under the call's key and does not ask again.
 */
export interface CallFailure {
  key: readonly unknown[];
  failure: ApiFailure;
}

/** Looks an answer up by the call that gives it. */
export function findAnswer<T>(answers: readonly CallAnswer[], call: ApiCall<T>): T | undefined {
  const wanted = hashCallKey(call.key);
  return answers.find((answer) => hashCallKey(answer.key) === wanted)?.data as T | undefined;
}
