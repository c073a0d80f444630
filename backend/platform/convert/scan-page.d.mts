// Types of scan-page.mjs (plain JavaScript: it runs in the conversion worker threads).
import type { DisplayList, Page, Rect } from 'mupdf';
import type { RenderSettings } from './page-pool';

/** What scanAsWebp reads of a render task. */
export type ScanSettings = Pick<RenderSettings, 'svgGzipLimit' | 'raster'>;

export function rasterScale(bounds: Rect, raster: RenderSettings['raster']): number;

export function scanAsWebp(page: Page, list: DisplayList, bounds: Rect, task: ScanSettings): Promise<Buffer | null>;
