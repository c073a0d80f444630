// Small pictures of the pages this reader may read, to jump from: a panel beside the pages on a
// wide screen, a sheet at the bottom on a phone; under them, which pages the free preview leaves out. They are the page images themselves (the same
// address, so the same rights, and the browser's copy serves the page when it is read), each
// loaded only as it comes into sight in the panel. Opened, the panel shows the page being read.
import { useEffect, useRef } from 'react';
import { pageImagePath } from '../../../../shared/page-image';
import type { Document } from '../../../../shared/types/document';
import { Button } from '../../ui/semi';

/** Where the thumbnails are a sheet over the pages (reader.css), not a panel beside them. */
export const PHONE_WIDTH = '(max-width: 600px)';

export function PageThumbnails({
  doc,
  pages,
  closedNote,
  current,
  ratio,
  onChoose,
  onClose,
}: {
  doc: Document;
  /** how many pages this reader may read */
  pages: number;
  /** Said under them when pages past the free preview stay closed to this reader. */
  closedNote?: string;
  current: number;
  ratio: string;
  onChoose: (page: number) => void;
  /** Closes the panel (关闭, Escape, a page chosen on a phone): the opener takes the focus back. */
  onClose: () => void;
}) {
  // Opened on page 30 of 40, the panel shows page 30 and its neighbours, not pages 1 to 6, and takes
  // the keyboard there: it lies over the pages, and Escape closes it as it does the find bar. Only on
  // opening: a page turned meanwhile neither scrolls it nor pulls the focus.
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const here = panel.current?.querySelector<HTMLElement>('[aria-current="page"]');
    here?.scrollIntoView({ block: 'center', inline: 'nearest' });
    here?.focus({ preventScroll: true });
  }, []);
  return (
    <nav
      ref={panel}
      className="app-thumbnails"
      aria-label="页面缩略图"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        } else if (event.key === 'Tab' && window.matchMedia(PHONE_WIDTH).matches) {
          // On a phone the sheet covers the lower half of the screen: Tab past its last page went on
          // to what lies under it (the comment box), out of sight. It goes round the sheet instead,
          // as in a dialog; Escape, 关闭 or a page chosen leaves it.
          const stops = [...(panel.current?.querySelectorAll<HTMLElement>('button, a[href]') ?? [])];
          const [first, last] = [stops[0], stops[stops.length - 1]];
          const to = event.shiftKey
            ? event.target === first
              ? last
              : undefined
            : event.target === last
              ? first
              : undefined;
          if (!to) return;
          event.preventDefault();
          to.focus();
        }
      }}
    >
      <div className="app-thumbnails__head">
        <span>缩略图</span>
        <Button size="small" onClick={onClose}>
          关闭
        </Button>
      </div>
      <ol className="app-thumbnails__list">
        {Array.from({ length: pages }, (_, i) => i + 1).map((page) => (
          <li key={page}>
            <button
              type="button"
              className={`app-thumbnails__page${page === current ? ' app-thumbnails__page--current' : ''}`}
              onClick={() => onChoose(page)}
              aria-label={`跳到第 ${page} 页`}
              aria-current={page === current ? 'page' : undefined}
            >
              <span className="app-thumbnails__frame" style={{ aspectRatio: ratio }}>
                <img src={pageImagePath(doc, page)} alt="" loading="lazy" decoding="async" />
              </span>
              <span className="app-thumbnails__number">{page}</span>
            </button>
          </li>
        ))}
      </ol>
      {closedNote && <p className="app-thumbnails__closed">{closedNote}</p>}
    </nav>
  );
}
