import type { BackendContext } from '../../platform/context';
import { positionsFile, type ContentKind, type PendingImages } from '../../platform/convert/converter';
import { outputFolder, outputKey } from './files';

// The manifest of a file's conversion (documents/<h0>/…/<md5>/manifest.json): written last by a
// conversion, it says a complete conversion is there (a same-file upload reuses it) and which
// file each page is. The page images job (page-images.ts) rewrites it as pages change.

export const MANIFEST = 'manifest.json';
const MANIFEST_VERSION = 1;

/** What a complete conversion left in the blob store. */
export interface Manifest {
  version: number;
  pages: number;
  width: number;
  height: number;
  /** page n → its file name in the folder (`3.gzip.svg`, `4.webp`, `5.jpg`) */
  pageFiles: string[];
  /** pages whose images are still as the PDF stores them (page number → what to make of them); absent when none */
  pendingImages?: Record<string, PendingImages>;
  cover: { webp: string; png: string; bigPng: string };
  /** the intermediate PDF of LibreOffice or calibre, kept so that re-rendering never needs them */
  pdf: string | null;
  text: string;
  /**
   * how many page texts `text` holds, a form feed between them; absent in a conversion made before they were kept apart
   */
  textPages?: number;
  /**
   * the version of the characters' positions kept for every page (`<n>.pos.gz`); absent in a conversion made before
   * they were kept (positions.ts fills them in)
   */
  positions?: number;
  converter: string;
  /**
   * the rendering route of the extension it was converted under (renderingRoute); absent in a
   * conversion made before it was recorded
   */
  route?: string;
  /**
   * what the file's bytes hold (sniffContent), so that a reuse checks them against its extension
   * without reading the original back; absent in a conversion made before it was recorded
   */
  content?: ContentKind;
  convertedAt: string;
}

export function newManifest(fields: Omit<Manifest, 'version'>): Manifest {
  return { version: MANIFEST_VERSION, ...fields };
}

/** A stored file of the folder, whole; null when there is none. */
export async function readBlob(app: BackendContext, key: string): Promise<Buffer | null> {
  const blob = await app.blobs.get(key);
  if (!blob) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readManifest(app: BackendContext, hash: string): Promise<Manifest | null> {
  const bytes = await readBlob(app, outputKey(hash, MANIFEST));
  if (!bytes) return null;
  try {
    const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
    return manifest.version === MANIFEST_VERSION && manifest.pages > 0 ? manifest : null;
  } catch {
    return null;
  }
}

/**
 * Deletes the folder's files the manifest does not name: what an earlier conversion made and this
 * one did not (a shorter document, another format), or what a run of the page images job left
 * when its process ended between a manifest and the deletions after it.
 */
export async function deleteUnnamedFiles(app: BackendContext, hash: string, manifest: Manifest): Promise<void> {
  const named = [
    ...manifest.pageFiles,
    manifest.cover.webp,
    manifest.cover.png,
    manifest.cover.bigPng,
    manifest.text,
    MANIFEST,
    ...(manifest.pdf ? [manifest.pdf] : []),
  ];
  if (manifest.positions) named.push(...manifest.pageFiles.map((_, i) => positionsFile(i + 1)));
  const keep = new Set(named.map((name) => outputKey(hash, name)));
  const stray: string[] = [];
  for await (const key of app.blobs.list(outputFolder(hash))) if (!keep.has(key)) stray.push(key);
  for (const key of stray) await app.blobs.delete(key);
}

export async function writeManifest(app: BackendContext, hash: string, manifest: Manifest): Promise<void> {
  await app.blobs.put(outputKey(hash, MANIFEST), Buffer.from(JSON.stringify(manifest), 'utf8'));
}
