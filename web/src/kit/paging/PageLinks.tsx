// Numbered paging as links, so the page lives in the address: it survives a reload and the
// back button, and every page has its own URL.
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import './page-links.css';

/** The page numbers to show: the first, the last, and two on each side of the current one. */
export function visiblePages(page: number, pages: number): (number | 'gap')[] {
  const shown = new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2].filter((p) => p >= 1 && p <= pages));
  const sorted = [...shown].sort((a, b) => a - b);
  const result: (number | 'gap')[] = [];
  sorted.forEach((p, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && p - previous > 1) result.push('gap');
    result.push(p);
  });
  return result;
}

export function PageLinks({
  page,
  pages,
  hrefFor,
  label = '分页',
}: {
  page: number;
  pages: number;
  /** The address of page `n`. */
  hrefFor: (n: number) => string;
  label?: string;
}) {
  const nav = useRef<HTMLElement>(null);
  // A link followed may be gone on the new page (下一页 on the last one): the focus then goes to
  // the current page's number, not to the page's top; the page itself stays at its top, where the
  // move took it (a focus that scrolled would bring a tap on 下一页 back down to the paging).
  const followed = useRef(false);
  useEffect(() => {
    if (!followed.current) return;
    followed.current = false;
    if (!nav.current?.contains(document.activeElement))
      nav.current?.querySelector<HTMLElement>('[aria-current="page"]')?.focus({ preventScroll: true });
  }, [page]);
  if (pages <= 1) return null;
  return (
    <nav
      ref={nav}
      className="app-page-links"
      aria-label={label}
      onClick={() => {
        followed.current = true;
      }}
    >
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className="app-page-links__step" rel="prev">
          上一页
        </Link>
      ) : (
        <span className="app-page-links__step app-page-links__step--disabled">上一页</span>
      )}
      {visiblePages(page, pages).map((p, index) =>
        p === 'gap' ? (
          <span key={`gap-${index}`} className="app-page-links__gap">
            …
          </span>
        ) : (
          <Link
            key={p}
            to={hrefFor(p)}
            className={`app-page-links__page${p === page ? ' app-page-links__page--current' : ''}`}
            aria-current={p === page ? 'page' : undefined}
            aria-label={`第 ${p} 页`}
          >
            {p}
          </Link>
        ),
      )}
      {page < pages ? (
        <Link to={hrefFor(page + 1)} className="app-page-links__step" rel="next">
          下一页
        </Link>
      ) : (
        <span className="app-page-links__step app-page-links__step--disabled">下一页</span>
      )}
    </nav>
  );
}
