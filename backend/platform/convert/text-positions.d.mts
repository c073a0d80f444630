// Types of text-positions.mjs (plain JavaScript: it runs in the conversion worker threads).
import type * as Mupdf from 'mupdf';

/** One line: its box, its text and where each character starts (tenths of a point), and whether it runs down the page. */
export type PositionsLine = [x0: number, y0: number, x1: number, y1: number, text: string, steps: number[], vertical?: 1];

export interface PagePositions {
  v: number;
  /** the page's size in points */
  w: number;
  h: number;
  l: PositionsLine[];
}

export const POSITIONS_VERSION: number;
export function positionsFile(n: number): string;
export function textAndPositionsOf(mupdf: typeof Mupdf, list: Mupdf.DisplayList, bounds: readonly number[]): { text: string; positions: PagePositions };
export function readStructuredText(xml: string, bounds: readonly number[]): { text: string; positions: PagePositions };
export function encodePositions(positions: PagePositions, gzipLevel: number): Buffer;
