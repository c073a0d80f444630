// The shapes of the page images that came in a shape other than their document's first page's,
// kept by the app for as long as it runs: a reader who comes back to a document (Back from
// another screen) gets each page it showed in its own shape at once, before any image comes.
// Without them the pages above the place left took the first page's shape again (their images
// load only near the viewport), and the place the router puts back, in pixels, pointed at
// another page. Kept beside the app's query cache, so that each app (each test's) has its own.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';

/** A long session reads many documents: the oldest shapes go past this many. */
const MOST = 5000;

/** By app: `width / height` by the page image's address; none for a page in the first page's shape. */
const shapesByApp = new WeakMap<QueryClient, Map<string, string>>();

export interface PageShapes {
  /** The shape the image at `src` came in, where it differs from the first page's. */
  known: (src: string) => string | undefined;
  /** Keeps the shape the image at `src` came in (undefined: the first page's). */
  keep: (src: string, shape: string | undefined) => void;
}

export function usePageShapes(): PageShapes {
  const client = useQueryClient();
  let shapes = shapesByApp.get(client);
  if (!shapes) shapesByApp.set(client, (shapes = new Map()));
  const kept = shapes;
  return {
    known: (src) => kept.get(src),
    keep: (src, shape) => {
      kept.delete(src);
      if (shape === undefined) return;
      kept.set(src, shape);
      const oldest = kept.keys().next();
      if (kept.size > MOST && !oldest.done) kept.delete(oldest.value);
    },
  };
}
