// Types of svg-pages.mjs (plain JavaScript: it runs in the conversion worker threads).
import type { DisplayList, Rect } from 'mupdf';

export interface SvgPage {
  list: Pick<DisplayList, 'run'>;
  bounds: Rect;
}

export function svgPages(pages: SvgPage[]): Buffer[];
