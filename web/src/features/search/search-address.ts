// The address of the results page (`/search?…`) for a state, and of new words searched from it.
import type { SearchState } from '../../../../shared/page-data';

/** The results page's address of a search state (what it leaves out is the default). */
export function searchAddress(state: SearchState): string {
  const params = new URLSearchParams({ wd: state.wd });
  if (state.category) params.set('category_id', String(state.category));
  if (state.ext) params.set('ext', state.ext);
  if (state.language) params.set('language', state.language);
  if (state.period) params.set('period', state.period);
  if (state.sort) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return `/search?${params.toString()}`;
}

/**
 * Other words searched on the results page, from its own box or the header's: they keep the
 * category, the format and the order chosen (what the reader wants whatever the words, as Baidu
 * keeps 文档格式), from its first page; a language or a period narrowed the last words.
 */
export const newWordsAddress = (state: SearchState, wd: string): string =>
  searchAddress({ wd, page: 1, category: state.category, ext: state.ext, period: '', sort: state.sort });
