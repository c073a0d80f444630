import { useEffect, useRef } from 'react';
import { Button } from './semi';

/**
 * A pager's focus across a turn: 下一页 on the last page (上一页 on the first) turns disabled under
 * the keyboard, which drops the focus on <body>: it goes to `fallback` inside the pager instead,
 * without scrolling (a list that went back to its top with the new page, /hot's, stays there
 * instead of coming back down to the paging). `nav` is the pager's element; `turn` turns the page.
 */
export function usePagerFocus(page: number, fallback: string, onTurn: (page: number) => void) {
  const nav = useRef<HTMLElement>(null);
  const turned = useRef(false);
  useEffect(() => {
    if (!turned.current) return;
    turned.current = false;
    const focused = document.activeElement;
    if (focused instanceof HTMLButtonElement && !focused.disabled && nav.current?.contains(focused)) return;
    nav.current?.querySelector<HTMLElement>(fallback)?.focus({ preventScroll: true });
  }, [page, fallback]);
  const turn = (next: number) => {
    turned.current = true;
    onTurn(next);
  };
  return { nav, turn };
}

/** Previous / next paging with the position, for short member lists. */
export function Pager({
  page,
  size,
  total,
  onChange,
}: {
  page: number;
  size: number;
  total: number;
  onChange: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  // After a turn by keyboard the focus goes to the other button.
  const { nav, turn } = usePagerFocus(page, 'button:not(:disabled)', onChange);
  if (pages <= 1) return null;
  return (
    <nav ref={nav} className="app-pager" aria-label="分页">
      <Button disabled={page <= 1} onClick={() => turn(page - 1)}>
        上一页
      </Button>
      {/* A live region: the page turned is heard where the focus stays. */}
      <span className="app-pager__position" role="status">
        第 {page} / {pages} 页，共 {total} 条
      </span>
      <Button disabled={page >= pages} onClick={() => turn(page + 1)}>
        下一页
      </Button>
    </nav>
  );
}
