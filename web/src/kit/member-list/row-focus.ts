import { useEffect, useRef, type FocusEvent } from 'react';

/**
 * Keeps the keyboard in a list whose rows (children marked `data-row` with the record's id) its data
 * changes under it (删除, 取消收藏, 标为已读): the control that had the focus gone with its row, or
 * with what the row shows, the focus fell to <body>. It goes on in that row if it is still there,
 * else at the row now in its place (or the last one), else at the list's heading (`titleId`).
 */
export function useRowFocusKeeper<E extends HTMLElement>(
  titleId: string,
  shown: readonly { id?: number }[] | undefined,
) {
  const rows = useRef<E>(null);
  // The row that had the focus last, while the focus stays in the list or went nowhere.
  const focused = useRef<{ id?: number; index: number } | null>(null);
  const onFocus = (event: FocusEvent) => {
    const row = (event.target as Element).closest<HTMLElement>('[data-row]');
    if (!row || !rows.current) return;
    focused.current = { id: Number(row.dataset.row), index: [...rows.current.children].indexOf(row) };
  };
  // Left for another control outside, or for nothing while still there (a click beside the list):
  // not kept. A control taken away with its row leaves it kept.
  const onBlur = (event: FocusEvent) => {
    const to = event.relatedTarget as Node | null;
    if (to ? !rows.current?.contains(to) : (event.target as Node).isConnected) focused.current = null;
  };
  useEffect(() => {
    const was = focused.current;
    if (!was || !shown || (document.activeElement && document.activeElement !== document.body)) return;
    focused.current = null;
    const children = rows.current?.children;
    const row =
      rows.current?.querySelector(`:scope > [data-row="${was.id}"]`) ??
      children?.[Math.min(was.index, children.length - 1)];
    const heading = document.getElementById(titleId);
    const target = row?.querySelector<HTMLElement>('a[href], button:not(:disabled), input, textarea') ?? heading;
    if (target === heading) heading?.setAttribute('tabindex', '-1');
    target?.focus();
  }, [shown, titleId]);
  return { rows, onFocus, onBlur };
}
