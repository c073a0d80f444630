// The shapes of the page images that came in a shape other than their document's first page's,
// kept in the tab (sessionStorage) by document and by the version of its pages: a reader who comes
// back to a document (Back from another screen, or a reload) gets each page it showed in its own
// shape at once, before any image comes. Without them the pages above the place left took the
// first page's shape again (their images load only near the viewport), and the place put back,
// in pixels, pointed at another page. Kept in memory too, beside the app's query cache, where the
// tab keeps nothing (storage off or full): Back still finds them then, a reload does not.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';

/** The documents whose shapes the tab keeps: the one read longest ago goes past this many. */
export const MOST_DOCUMENTS = 20;
/** The pages of one document whose shapes are kept (only those of another shape than the first page's). */
export const MOST_PAGES = 5000;

/** The ids of the documents kept, the one read last at the end. */
const INDEX_KEY = 'moredoc:page-shapes';
const documentKey = (documentId: number) => `${INDEX_KEY}:${documentId}`;

/** A document's shapes: `width / height` by page, for the pages of `version` (its first page image's address). */
interface KeptShapes {
  version: string;
  shapes: Record<string, string>;
}

/** By app, by document: where the tab keeps nothing, and so that each app (each test's) reads its own. */
const inMemory = new WeakMap<QueryClient, Map<number, KeptShapes>>();

function readStored<T>(key: string): T | undefined {
  try {
    const text = sessionStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `kept` as the shapes of `documentId` in the tab, the document read last; the documents
 * read longest ago go past MOST_DOCUMENTS, or sooner when the storage is full.
 */
function store(documentId: number, kept: KeptShapes): void {
  const ids = (readStored<number[]>(INDEX_KEY) ?? []).filter((id) => id !== documentId && Number.isInteger(id));
  ids.push(documentId);
  const text = JSON.stringify(kept);
  try {
    while (ids.length > MOST_DOCUMENTS) sessionStorage.removeItem(documentKey(ids.shift() ?? 0));
    for (;;) {
      try {
        sessionStorage.setItem(documentKey(documentId), text);
        break;
      } catch (error) {
        if (ids.length <= 1) throw error;
        sessionStorage.removeItem(documentKey(ids.shift() ?? 0));
      }
    }
    sessionStorage.setItem(INDEX_KEY, JSON.stringify(ids));
  } catch {
    // a tab that keeps nothing: the shapes are kept in memory only
  }
}

export interface PageShapes {
  /** The shape page `page`'s image came in, where it differs from the first page's. */
  known: (page: number) => string | undefined;
  /** Keeps the shape page `page`'s image came in (undefined: the first page's). */
  keep: (page: number, shape: string | undefined) => void;
}

/** The shapes of the pages of `documentId` as `version` (the address of its first page image) has them. */
export function usePageShapes(documentId: number, version: string): PageShapes {
  return shapesOf(useQueryClient(), documentId, version);
}

function shapesOf(client: QueryClient, documentId: number, version: string): PageShapes {
  let documents = inMemory.get(client);
  if (!documents) inMemory.set(client, (documents = new Map()));
  let kept = documents.get(documentId);
  if (kept?.version !== version) {
    const stored = readStored<KeptShapes>(documentKey(documentId));
    // Another version (a file replaced since, converted again) has pages of its own.
    kept =
      stored?.version === version && stored.shapes && typeof stored.shapes === 'object'
        ? stored
        : { version, shapes: {} };
    documents.set(documentId, kept);
  }
  const own = kept;
  return {
    known: (page) => {
      const shape = own.shapes[page];
      return typeof shape === 'string' ? shape : undefined;
    },
    keep: (page, shape) => {
      if (own.shapes[page] === shape) return;
      if (shape === undefined) delete own.shapes[page];
      else if (Object.keys(own.shapes).length < MOST_PAGES) own.shapes[page] = shape;
      else return;
      if (documentId > 0) store(documentId, own);
    },
  };
}
