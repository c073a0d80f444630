// What a paged list shows when the address names a page past its last one (an old link, a
// hand-typed ?page=99): that page does not exist, with links to the first and the last page
// of the same list, so the filters of the address are kept.
import { Link } from 'react-router-dom';
import { EmptyState } from '../../ui/states';
import './page-links.css';

export { isPastLastPage } from '../../../../shared/page-data';

export function PastLastPage({
  page,
  pages,
  hrefFor,
  noun,
}: {
  page: number;
  /** How many pages the list has (at least 1). */
  pages: number;
  /** The address of page `n` of the same list. */
  hrefFor: (n: number) => string;
  /** What the list holds, e.g. 文档. */
  noun: string;
}) {
  return (
    <EmptyState title={`没有第 ${page} 页`} description={`共 ${pages} 页，这一页没有${noun}。`}>
      <p className="app-page-links">
        <Link to={hrefFor(1)}>回到第 1 页</Link>
        {pages > 1 && <Link to={hrefFor(pages)}>前往最后一页（第 {pages} 页）</Link>}
      </p>
    </EmptyState>
  );
}
