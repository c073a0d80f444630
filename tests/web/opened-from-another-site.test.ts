import { describe, expect, it } from 'vitest';
import { createMemoryRouter } from 'react-router-dom';
import { untilTheFirstMove } from '../../web/src/app/opened-from-another-site';

describe('a page another site opened', () => {
  it("makes its searches as a visitor's until the reader's first move, a new search or the same words again", async () => {
    const router = createMemoryRouter([{ path: '*', element: null }], { initialEntries: ['/search?wd=站外'] });
    const asVisitor = untilTheFirstMove(router);
    expect(asVisitor()).toBe(true);
    await router.navigate('/search?wd=站外');
    expect(asVisitor()).toBe(false);
    await router.navigate(-1);
    expect(router.state.location.search).toBe('?wd=站外');
    expect(asVisitor()).toBe(false);
    router.dispose();
  });
});
