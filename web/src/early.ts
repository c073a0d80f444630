// Runs before the app's code has arrived: its own small module script at the top of the
// page (see web/vite.config.ts), importing nothing but shared/page-image.ts, which the build
// keeps in this script's own file, so the browser runs it as soon as it is here. On a
// document's page (`/library/{category}/{id}`) it preloads the reader's code. The page the gateway serves carries the
// document itself (its route data)
// and has the first page image preloaded already; only a page without it (the gateway's
// calls were late, or the Vite dev server) has this script ask for the document at once and,
// when its hash is known, tell the browser to fetch the first page image with high priority.
// All of it travels while the app's code downloads. The app's HTTP client takes the answer
// over instead of asking again (api/early-responses.ts).
import type { RouteName } from '../../shared/routes';
import { firstPageImagePath } from '../../shared/page-image';
import type { EarlyResponses } from './api/early-responses';

/**
 * api/early-responses.ts `EARLY_RESPONSES` (a test keeps them equal: importing it would share a chunk with the app).
 */
export const EARLY_RESPONSES_KEY = '__moredocEarlyResponses';

/** The reader's route in the route table. */
export const READER_ROUTE = 'library-category-id' satisfies RouteName;

/**
 * The paths of READER_ROUTE, both ids positive. A copy of the table's pattern and checks:
 * matching through shared/routes.ts would bring the whole table and the page data
 * declarations into this script, which has to stay a few hundred bytes that run before the
 * app's code. tests/web/early.test.ts holds the two equal.
 */
export const READER_PATH = /^\/library\/[1-9][0-9]{0,15}\/([1-9][0-9]{0,15})\/?$/;

type PageSource = Parameters<typeof firstPageImagePath>[0];

/** The document request exactly as features/document/api.ts `documentQuery` sends it. */
export const documentRequestUrl = (id: string) => `/api/v1/document?id=${id}&with_author=true`;

function addLink(rel: string, href: string, extra: Record<string, string> = {}): void {
  const link = document.createElement('link');
  link.rel = rel;
  link.href = href;
  for (const [name, value] of Object.entries(extra)) link.setAttribute(name, value);
  document.head.appendChild(link);
}

/** The reader's code and styles, which the build names on this script (`data-reader`). */
function preloadReaderCode(): void {
  const files = document.querySelector<HTMLScriptElement>('script[data-reader]')?.dataset.reader?.split(' ') ?? [];
  for (const file of files) {
    if (file.endsWith('.js')) addLink('modulepreload', file, { crossorigin: '' });
    // crossorigin as on the stylesheet links the page and Vite's loader add: a preload in
    // another credentials mode would not be used, and the file would be fetched twice.
    else if (file.endsWith('.css')) addLink('preload', file, { as: 'style', crossorigin: '' });
  }
}

/** shared/page-data.ts `documentCall(id).key` (a test keeps them equal). */
export const documentKey = (id: string) => ['document', 'detail', Number(id)];

interface CarriedReads {
  routeData?: { key?: unknown; data?: unknown }[];
  routeFailures?: { key?: unknown }[];
}

/** The start data's reads of the document: its answer (`routeData`) and its 404 (`routeFailures`). */
function carriedReads(id: string, page: Document): { answer?: { data?: unknown }; failed: boolean } {
  const text = page.getElementById('start-data')?.textContent;
  if (!text) return { failed: false };
  try {
    const wanted = JSON.stringify(documentKey(id));
    const start = JSON.parse(text) as CarriedReads;
    return {
      answer: (start.routeData ?? []).find((answer) => JSON.stringify(answer.key) === wanted),
      failed: (start.routeFailures ?? []).some((failed) => JSON.stringify(failed.key) === wanted),
    };
  } catch {
    return { failed: false };
  }
}

/** The document the page carries in its start data (`routeData`), if it does. */
export function inlinedDocument(id: string, page: Document = document): PageSource | undefined {
  return carriedReads(id, page).answer?.data as PageSource | undefined;
}

function start(): void {
  const id = READER_PATH.exec(window.location.pathname)?.[1];
  if (!id) return;
  preloadReaderCode();
  // The page carries the document, or its 404, which the app shows without asking again.
  const carried = carriedReads(id, document);
  if (carried.answer?.data || carried.failed) return;
  const url = documentRequestUrl(id);
  const response = fetch(url, { headers: { Accept: 'application/json' } });
  (window as unknown as Record<string, EarlyResponses>)[EARLY_RESPONSES_KEY] = { [url]: response };
  void response
    .then((res) => (res.ok ? res.clone().json() : undefined))
    .then((doc: PageSource | undefined) => {
      const image = doc && firstPageImagePath(doc);
      if (image) addLink('preload', image, { as: 'image', fetchpriority: 'high' });
    })
    .catch(() => undefined);
}

start();
