import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The page of a member list (and of 我的消息), kept in the address (`?page=2`, beside what else it holds, e.g. 我的收藏's
 * `?type=article`) as the admin lists keep theirs: the browser's back from a document opened on page 2
 * comes back to page 2, and each page turned is a step of the history.
 */
export function usePageParam(): [number, (page: number, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('page'));
  const page = Number.isInteger(asked) && asked > 1 ? asked : 1;
  const setPage = useCallback(
    (next: number, options?: { replace?: boolean }) =>
      setParams(
        (current) => {
          const out = new URLSearchParams(current);
          if (next > 1) out.set('page', String(next));
          else out.delete('page');
          return out;
        },
        // The list stays where the member scrolled it, as before the page moved to the address.
        { preventScrollReset: true, replace: options?.replace },
      ),
    [setParams],
  );
  return [page, setPage];
}

/**
 * A page past the last (its last row removed, gone meanwhile, or an old `?page=40`): the list goes
 * to the page that is now the last in one step, computed from `total`, in place of the page in the
 * history. `shown` is the list's own answer for `page` (undefined while it loads or shows the
 * previous page's). Answers whether the page is past the last, so that no empty state says
 * meanwhile that the member has none at all.
 */
export function useLastPageFallback(
  [page, setPage]: ReturnType<typeof usePageParam>,
  shown: { rows: number; total: number } | undefined,
  size: number,
): boolean {
  const pastTheLast = shown !== undefined && page > 1 && shown.rows === 0;
  const lastPage = Math.max(1, Math.min(page - 1, Math.ceil((shown?.total ?? 0) / size)));
  useEffect(() => {
    if (pastTheLast) setPage(lastPage, { replace: true });
  }, [pastTheLast, lastPage, setPage]);
  return pastTheLast;
}
