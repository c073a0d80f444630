import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

// Files from disk or the blob store as answers outside the API (favicon, sitemaps): the content type by
// extension, no sniffing, and grpc-gateway's plain 404 when there is no such file.

const TYPES: Record<string, string> = {
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.webp': 'image/webp',
  '.xml': 'text/xml; charset=utf-8',
};

export function sendNotFound(reply: FastifyReply) {
  return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('404 page not found');
}

/** A file inside `root` given a user- or admin-supplied relative path, or null. */
export function fileInside(root: string, relative: string): string | null {
  const resolved = path.resolve(root, relative);
  return resolved.startsWith(root + path.sep) ? resolved : null;
}

/** The type of a file answer by the name's extension. */
export function contentTypeOf(name: string): string {
  return TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

export function sendFile(reply: FastifyReply, file: string) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return sendNotFound(reply);
  return reply
    .header('content-type', contentTypeOf(file))
    .header('content-length', stat.size)
    .header('last-modified', stat.mtime.toUTCString())
    .header('x-content-type-options', 'nosniff')
    .send(fs.createReadStream(file));
}

/** A blob read from the store (BlobStore.get), whole, typed by `name`'s extension. */
export function sendBlob(reply: FastifyReply, blob: { stream: Readable; length: number; mtime: Date }, name: string) {
  return reply
    .header('content-type', contentTypeOf(name))
    .header('content-length', blob.length)
    .header('last-modified', blob.mtime.toUTCString())
    .header('x-content-type-options', 'nosniff')
    .send(blob.stream);
}
