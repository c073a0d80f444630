// Types of svg-pages.mjs (plain JavaScript: it runs in the conversion worker threads).
import type { Device, DisplayList, Matrix, Rect } from 'mupdf';

/** What can draw a page: the page itself (or its display list). */
export interface Drawing {
  run(device: Device, matrix: Matrix): void;
}

export class SvgPages {
  add(page: Drawing, list: DisplayList, bounds: Rect): void;
  finish(): Buffer[];
  destroy(): void;
}
