// Types of text-positions.mjs (plain JavaScript: it runs in the conversion worker threads).
import type * as Mupdf from 'mupdf';

import type { PagePositions } from '../../../shared/types/document';

export type { PagePositions, PositionsLine } from '../../../shared/types/document';

export const POSITIONS_VERSION: number;
export function positionsFile(n: number): string;
export function textAndPositionsOf(
  mupdf: typeof Mupdf,
  list: Mupdf.DisplayList,
  bounds: readonly number[],
): { text: string; positions: PagePositions };
export function textAndPositionsFromXml(
  mupdf: typeof Mupdf,
  list: Mupdf.DisplayList,
  bounds: readonly number[],
): { text: string; positions: PagePositions };
export function readStructuredText(xml: string, bounds: readonly number[]): { text: string; positions: PagePositions };
export function encodePositions(positions: PagePositions, gzipLevel: number): Buffer;
