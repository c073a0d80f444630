// Types of svg-images.mjs (plain JavaScript: it runs in the conversion worker threads).
import type { RenderSettings } from './page-pool';

export const MIN_IMAGE_BASE64: number;

export function shrinkSvgImages(
  svg: Buffer,
  raster: RenderSettings['raster'],
): Promise<{ svg: Buffer; readingBytes: number }>;

export function photosOf(svg: Buffer): { bytes: number; rest: Buffer } | null;
