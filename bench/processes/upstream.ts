// The upstream of the proxy benchmark: a minimal node:http server, so that what the three
// ways of reaching it (directly, nginx, gateway) differ in is the proxy alone.
//   GET /api/v1/settings          → the embedded backend's real settings JSON (BENCH_SETTINGS_FILE)
//   GET /view/page/<hash>/<n>.png → a 100 KB image (incompressible bytes behind a PNG signature)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export const PAGE_IMAGE_BYTES = 100 * 1024;

const settings = readFileSync(process.env.BENCH_SETTINGS_FILE ?? '', 'utf8');
const image = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(PAGE_IMAGE_BYTES - 8),
]);
const PAGE = /^\/view\/page\/[0-9a-f]{32}\/\d+\.png$/;

const server = createServer((req, res) => {
  const path = (req.url ?? '').split('?', 1)[0] ?? '';
  if (req.method === 'GET' && path === '/api/v1/settings') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(settings) });
    res.end(settings);
  } else if (req.method === 'GET' && PAGE.test(path)) {
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-length': image.length,
      'cache-control': 'public, max-age=86400',
    });
    res.end(image);
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
  }
});
// Proxies keep their upstream connections open; never be the side that closes them first.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ ready: `http://127.0.0.1:${port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
