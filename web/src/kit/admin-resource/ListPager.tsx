// The paging of an admin list, in Chinese and by keyboard. Semi's Pagination names its items in
// English whatever the locale ("Previous", "Page 2", "More", "Page size selector") on <li>s that
// Tab never reaches: a screen reader heard English and a keyboard could not turn a page.
import { Button } from '../../ui/semi';
import { usePagerFocus } from '../../ui/Pager';
import { IconChevronLeft, IconChevronRight } from '../../ui/icons';
import { visiblePages } from '../paging/PageLinks';
import '../../ui/form.css';

export function ListPager({
  page,
  size,
  total,
  sizes,
  onPage,
  onSize,
}: {
  page: number;
  size: number;
  total: number;
  sizes: readonly number[];
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  // After a turn by keyboard to the first or last page the focus goes to the current page's number.
  const { nav, turn } = usePagerFocus(page, '[aria-current="page"]', onPage);
  // None, or a page past the last (an old link) on its way to the last one: no count to give.
  if ((page - 1) * size >= total) return null;
  const first = (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  return (
    <div className="app-list-pager">
      <span className="app-list-pager__total">
        显示第 {first} 条-第 {last} 条，共 {total} 条
      </span>
      {pages > 1 && (
        <nav ref={nav} className="app-list-pager__pages" aria-label="分页">
          <Button
            theme="borderless"
            type="tertiary"
            icon={<IconChevronLeft />}
            aria-label="上一页"
            disabled={page <= 1}
            onClick={() => turn(page - 1)}
          />
          {visiblePages(page, pages).map((p, index) =>
            p === 'gap' ? (
              <span key={`gap-${index}`} className="app-list-pager__gap" aria-hidden="true">
                …
              </span>
            ) : (
              <Button
                key={p}
                theme={p === page ? 'light' : 'borderless'}
                type={p === page ? 'primary' : 'tertiary'}
                aria-current={p === page ? 'page' : undefined}
                aria-label={`第 ${p} 页`}
                onClick={() => p !== page && turn(p)}
              >
                {p}
              </Button>
            ),
          )}
          <Button
            theme="borderless"
            type="tertiary"
            icon={<IconChevronRight />}
            aria-label="下一页"
            disabled={page >= pages}
            onClick={() => turn(page + 1)}
          />
        </nav>
      )}
      {total > (sizes[0] ?? size) && (
        <select
          className="app-select app-list-pager__size"
          aria-label="每页条数"
          value={size}
          onChange={(event) => onSize(Number(event.target.value))}
        >
          {sizes.map((n) => (
            <option key={n} value={n}>
              {n} 条/页
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
