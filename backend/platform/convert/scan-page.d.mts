// Types of scan-page.mjs (plain JavaScript: it runs in the conversion worker threads).
import type { DisplayList, Page, Rect } from 'mupdf';
import type { RenderSettings, ScanTarget } from './page-pool';

/** What scanJpeg reads of a render task. */
export type ScanSettings = Pick<RenderSettings, 'svgGzipLimit' | 'raster'>;

export function rasterScale(bounds: Rect, raster: RenderSettings['raster']): number;

export function scanJpeg(
  page: Page,
  list: DisplayList,
  bounds: Rect,
  task: ScanSettings,
): Promise<{ jpeg: Buffer; target: ScanTarget } | null>;

export function scanWebp(
  jpeg: Uint8Array,
  target: ScanTarget,
  webpOptions: RenderSettings['raster']['webpOptions'],
): Promise<Buffer | null>;
