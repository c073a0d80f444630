// The shapes of a document's page images, kept in the tab (sessionStorage) for a reload: by
// document and version, for the documents read last only.
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../web/src/api/query-client';
import { MOST_DOCUMENTS, usePageShapes, type PageShapes } from '../../web/src/features/reader/page-shapes';

/** The shapes of document `id` (version `version`) as a new app in this tab finds them. */
function shapesIn(id: number, version = `/view/page/${id}/1.svg`): PageShapes {
  let found: PageShapes | undefined;
  function Probe() {
    found = usePageShapes(id, version);
    return null;
  }
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Probe />
    </QueryClientProvider>,
  );
  return found!;
}

describe('page shapes kept in the tab', () => {
  it(`keeps those of the ${MOST_DOCUMENTS} documents read last, forgetting the one read longest ago`, () => {
    for (let id = 1; id <= MOST_DOCUMENTS + 1; id++) shapesIn(id).keep(2, '800 / 600');
    expect(shapesIn(1).known(2)).toBeUndefined();
    expect(shapesIn(2).known(2)).toBe('800 / 600');
    expect(shapesIn(MOST_DOCUMENTS + 1).known(2)).toBe('800 / 600');
    const kept = Object.keys(sessionStorage).filter((key) => key.startsWith('moredoc:page-shapes:'));
    expect(kept).toHaveLength(MOST_DOCUMENTS);
  });

  it('forgets a page that came in the first page’s shape after all, and gives another version none', () => {
    const shapes = shapesIn(7);
    shapes.keep(3, '842 / 595');
    shapes.keep(4, '842 / 595');
    shapes.keep(4, undefined);
    expect([shapesIn(7).known(3), shapesIn(7).known(4)]).toEqual(['842 / 595', undefined]);
    expect(shapesIn(7, '/view/page/other/1.svg').known(3)).toBeUndefined();
  });

  it('keeps them in the app when the tab keeps nothing (storage full)', () => {
    const client = createQueryClient();
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      let shapes: PageShapes | undefined;
      function Probe() {
        shapes = usePageShapes(9, 'v');
        return null;
      }
      const view = render(
        <QueryClientProvider client={client}>
          <Probe />
        </QueryClientProvider>,
      );
      shapes!.keep(2, '800 / 600');
      view.unmount();
      render(
        <QueryClientProvider client={client}>
          <Probe />
        </QueryClientProvider>,
      );
      expect(shapes!.known(2)).toBe('800 / 600');
    } finally {
      Storage.prototype.setItem = setItem;
    }
  });
});
