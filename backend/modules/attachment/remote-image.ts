import dns from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import type { Database } from '../../db';
import type { BlobStore } from '../../platform/blobs/blob-store';
import type { RemoteImageTrust } from '../../platform/context';
import { imageSize, sniffImage } from './image';
import { isBannedHash } from './store';

// A remote image (an OAuth provider's avatar) copied into the blob store as an upload is kept
// (uploads/<h0>/.../<md5><ext>, the same bytes check), so that the site never shows the
// remote address: whoever serves it would learn every viewer's address. Only https, only a
// public address (checked after DNS resolution, and the connection made to that checked
// address), at most `maxBytes` (streamed, dropped past it), within `timeoutMs` in all.
// Any failure is `null`: the caller goes on without the image.

export interface RemoteImageOptions extends RemoteImageTrust {
  maxBytes: number;
  timeoutMs: number;
}

export interface CopiedImage {
  /** `/uploads/...` */
  path: string;
  hash: string;
  ext: string;
  size: number;
  width: number;
  height: number;
}

/** Ranges that are not the public internet: private, loopback, link-local, shared, documentation, multicast... */
const NOT_PUBLIC = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(prefix, bits, 'ipv4');
}
/** IPv6: global unicast (2000::/3) only, without documentation, Teredo and 6to4 (they embed IPv4 addresses). */
const GLOBAL_V6 = new net.BlockList();
GLOBAL_V6.addSubnet('2000::', 3, 'ipv6');
const NOT_GLOBAL_V6 = new net.BlockList();
NOT_GLOBAL_V6.addSubnet('2001:db8::', 32, 'ipv6');
NOT_GLOBAL_V6.addSubnet('2001::', 32, 'ipv6');
NOT_GLOBAL_V6.addSubnet('2002::', 16, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family === 6) return GLOBAL_V6.check(address, 'ipv6') && !NOT_GLOBAL_V6.check(address, 'ipv6');
  return false;
}

const EXTENSIONS = { jpeg: '.jpg', png: '.png', gif: '.gif', bmp: '.bmp', webp: '.webp', ico: '.ico' } as const;

/** The image at `url` kept in the blob store, or null (not https, not public, too big, too slow, not an image...). */
export async function copyRemoteImage(
  blobs: BlobStore,
  db: Database,
  url: string,
  opts: RemoteImageOptions,
): Promise<CopiedImage | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.protocol !== 'https:' || target.username || target.password) return null;
  const allow = opts.allowAddress ?? isPublicAddress;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  let response: IncomingMessage | undefined;
  try {
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    // The resolver is not aborted by the signal: its answer is not waited for past the limit.
    const timedOut = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(new Error('timeout')), { once: true }),
    );
    timedOut.catch(() => {});
    const addresses = await Promise.race([dns.lookup(host, { all: true, verbatim: true }), timedOut]);
    // Every address the name has must be allowed: a resolver may answer differently next time.
    if (addresses.length === 0 || !addresses.every((a) => allow(a.address))) return null;
    const chosen = addresses[0]!;
    // The connection goes to the address checked, never to a second resolution of the name.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [chosen]);
      else callback(null, chosen.address, chosen.family);
    };
    response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = https.get(target, {
        lookup,
        ...(net.isIP(host) ? {} : { servername: host }),
        ...(opts.ca ? { ca: [...tls.rootCertificates, opts.ca] } : {}),
        signal: controller.signal,
        headers: { accept: 'image/*' },
      });
      request.once('response', resolve);
      request.once('error', reject);
    });
    if (response.statusCode !== 200) return null;
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) return null;
    // At most maxBytes are read: the answer is dropped the moment it passes them.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > opts.maxBytes) return null;
      chunks.push(chunk);
    }
    const bytes = Buffer.concat(chunks);
    const kind = sniffImage(bytes);
    if (!kind) return null;
    const ext = EXTENSIONS[kind];
    const stored = await blobs.putContentAddressed(bytes, {
      prefix: 'uploads',
      ext,
      maxBytes: opts.maxBytes,
      async check({ md5 }) {
        if (await isBannedHash(db, md5)) throw new Error('a banned file');
      },
    });
    return { path: `/${stored.key}`, hash: stored.md5, ext, size: stored.size, ...imageSize(kind, bytes) };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    response?.destroy();
  }
}
