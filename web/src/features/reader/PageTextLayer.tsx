// Over a page image: its text, invisible but selectable where it is drawn (as PDF.js's text
// layer), and the marks of the words a find looks for. Every place is a fraction of the page,
// and the text's size a fraction of the page's width (`cqw`: the page frame is a size
// container), so the layer follows the image at any zoom; each line is stretched once, after
// it is first laid out, to the width its characters take on the page.
import { useQuery } from '@tanstack/react-query';
import { Fragment, useLayoutEffect, useMemo, useRef, type CSSProperties } from 'react';
import { findOnPage, textLines, type PageBox } from './page-geometry';
import { pagePositionsQuery } from './page-text-api';

const percent = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;

const boxStyle = (box: PageBox): CSSProperties => ({
  left: percent(box.left),
  top: percent(box.top),
  width: percent(box.width),
  height: percent(box.height),
});

export interface FindMarks {
  words: string;
  /** the place on this page to bring into sight and show as the current one (−1: none) */
  current: number;
}

export function PageTextLayer({
  hash,
  page,
  selectable,
  marks,
}: {
  hash: string;
  page: number;
  /** whether this reader may select and copy the text (the site's setting) */
  selectable: boolean;
  marks: FindMarks | null;
}) {
  const positions = useQuery(pagePositionsQuery(hash, page)).data;
  const lines = useMemo(() => (positions ? textLines(positions) : []), [positions]);
  const words = marks?.words ?? '';
  const current = marks?.current ?? -1;
  const found = useMemo(() => (positions && words ? findOnPage(positions, words) : []), [positions, words]);
  const layer = useRef<HTMLDivElement>(null);
  const ratio = positions ? positions.h / positions.w : 0;

  useLayoutEffect(() => {
    const spans = layer.current?.querySelectorAll<HTMLElement>('.app-text-layer__line');
    spans?.forEach((span, i) => {
      const line = lines[i];
      const frame = layer.current?.clientWidth ?? 0;
      if (!line || !frame) return;
      // Measured without the stretch: the text's own length at its size, then stretched to the page's.
      span.style.transform = '';
      const own = line.vertical ? span.offsetHeight : span.offsetWidth;
      const wanted = line.vertical ? line.height * frame * ratio : line.width * frame;
      if (own > 0) span.style.transform = line.vertical ? `scaleY(${wanted / own})` : `scaleX(${wanted / own})`;
    });
  }, [lines, ratio]);

  // The current place comes into sight when it is chosen (or when its page's positions come), not at every render:
  // centred in the part of the window below the reader's sticky toolbar (with find's hit list open it is up to
  // 320 px taller at 1280 px), not in the whole window, where it could end up under the toolbar. A top scroll
  // margin of the toolbar's stuck bottom moves the centred box's middle down by half of it.
  useLayoutEffect(() => {
    if (current < 0) return;
    const mark = layer.current?.querySelector<HTMLElement>('.app-text-layer__mark--current');
    if (!mark) return;
    const toolbar = mark.closest('.app-reader')?.querySelector<HTMLElement>('.app-reader__toolbar');
    const stuckTop = toolbar ? parseFloat(getComputedStyle(toolbar).top) || 0 : 0;
    mark.style.scrollMarginTop = toolbar ? `${stuckTop + toolbar.offsetHeight}px` : '';
    mark.scrollIntoView({ block: 'center' });
  }, [current, found]);

  if (!positions) return null;
  return (
    <div ref={layer} className={`app-text-layer${selectable ? '' : ' app-text-layer--locked'}`} data-page-text={page}>
      {lines.map((line, i) => (
        <Fragment key={i}>
          <span
            className={`app-text-layer__line${line.vertical ? ' app-text-layer__line--vertical' : ''}`}
            style={{
              left: percent(line.left),
              top: percent(line.top),
              fontSize: `${((line.vertical ? line.width : line.height * ratio) * 100).toFixed(3)}cqw`,
            }}
          >
            {line.text}
          </span>
          <br />
        </Fragment>
      ))}
      {found.map((boxes, occurrence) =>
        boxes.map((box, part) => (
          <mark
            key={`${occurrence}-${part}`}
            className={`app-text-layer__mark${occurrence === current ? ' app-text-layer__mark--current' : ''}`}
            style={boxStyle(box)}
            aria-hidden="true"
          />
        )),
      )}
    </div>
  );
}
