import { Button } from './semi';

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
  if (pages <= 1) return null;
  return (
    <nav className="app-pager" aria-label="分页">
      <Button disabled={page <= 1} onClick={() => onChange(page - 1)}>
        上一页
      </Button>
      <span className="app-pager__position">
        第 {page} / {pages} 页，共 {total} 条
      </span>
      <Button disabled={page >= pages} onClick={() => onChange(page + 1)}>
        下一页
      </Button>
    </nav>
  );
}
