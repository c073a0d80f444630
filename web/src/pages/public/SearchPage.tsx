import { SearchScreen } from '../../features/search/SearchScreen';

/** `/search?wd=…`. */
export function SearchPage() {
  return <SearchScreen />;
}
