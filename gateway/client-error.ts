// An address with raw, unencoded bytes (`/search?wd=填充` as curl, crawlers and some apps send
// it, where browsers send `%E5%A1%AB%E5%85%85`). Node's HTTP parser (llhttp) refuses any byte
// of 0x80 or more in the request target, `insecureHTTPParser` or not: the request never
// reaches Fastify, whose `clientError` handler would answer an English JSON "Client Error".
// The gateway answers it first: a page's address that a browser would have sent encoded is
// moved there (301, with a short Chinese page linking to it for a client that does not
// follow), another page's address gets that page as a 400, /api the API's JSON error, in
// Chinese (docs/decisions/086).
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, MESSAGES } from './errors';
import { escapeHtml } from './page-html';

/** What Node gives a `clientError` listener for a request it could not parse. */
export interface ParseError extends Error {
  code?: string;
  /** the bytes being parsed */
  rawPacket?: Buffer;
  /** where in them the parser stopped */
  bytesParsed?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The request line the parser stopped in: method and target, when its target has bytes of 0x80 or more. */
function unencodedTarget(error: ParseError): { method: string; target: Buffer } | undefined {
  const packet = error.rawPacket;
  if (error.code !== 'HPE_INVALID_URL' || !packet) return undefined;
  const at = Math.min(error.bytesParsed ?? 0, packet.length);
  const start = packet.lastIndexOf(0x0a, Math.max(at - 1, 0)) + 1;
  const end = packet.indexOf(0x0a, at);
  const line = packet.subarray(start, end < 0 ? packet.length : end);
  const methodEnd = line.indexOf(0x20);
  if (methodEnd < 0) return undefined;
  const targetEnd = line.indexOf(0x20, methodEnd + 1);
  const target = line.subarray(methodEnd + 1, targetEnd < 0 ? line.length : targetEnd);
  if (!target.some((byte) => byte >= 0x80)) return undefined;
  return { method: line.subarray(0, methodEnd).toString('latin1'), target };
}

/**
 * The target as a browser sends it (its bytes of 0x80 or more as `%XX`), when it is a path on
 * this site in UTF-8: what the page links to.
 */
export function encodedTarget(target: Buffer): string | undefined {
  try {
    utf8.decode(target);
  } catch {
    return undefined;
  }
  let encoded = '';
  for (const byte of target)
    encoded += byte >= 0x80 ? `%${byte.toString(16).toUpperCase()}` : String.fromCharCode(byte);
  return /^\/(?![/\\])[\x21-\x7e]*$/.test(encoded) ? encoded : undefined;
}

function addressPage(message: string, link?: string): string {
  return `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>网址无效</title>
    <meta name="robots" content="noindex">
  </head>
  <body>
    <main>
      <h1>网址无效</h1>
      <p>${message}</p>
      ${link ? `<p><a href="${escapeHtml(link)}">打开编码后的网址</a></p>\n      ` : ''}<p><a href="/">返回首页</a></p>
    </main>
  </body>
</html>
`;
}

/**
 * Answers a request whose address has unencoded bytes and ends its connection, as Node and
 * Fastify answer a parse error (written, then the socket destroyed); any other parse error is
 * left to Fastify's handler, which leaves a destroyed socket alone. `headers`: the site's
 * security headers (plugins/security-headers.ts), which no hook adds here: Fastify never sees it.
 */
export function unencodedAddressAnswer(headers: Readonly<Record<string, string>>) {
  const securityLines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return function answerUnencodedAddress(error: ParseError, socket: Duplex): void {
    if (socket.destroyed || !socket.writable) return;
    const request = unencodedTarget(error);
    if (!request) return;
    const forApi = /^\/api(\/|$)/.test(request.target.toString('latin1'));
    const link = forApi ? undefined : encodedTarget(request.target);
    // A page read (GET, HEAD) moves to its address encoded: what the client meant, and a crawler keeps that one.
    const moved = link !== undefined && (request.method === 'GET' || request.method === 'HEAD');
    const body = Buffer.from(
      forApi ? JSON.stringify(errorBody(400, MESSAGES.unencodedAddress)) : addressPage(MESSAGES.unencodedAddress, link),
    );
    const head = [
      moved ? 'HTTP/1.1 301 Moved Permanently' : 'HTTP/1.1 400 Bad Request',
      ...(moved ? [`Location: ${link}`] : []),
      `Content-Type: ${forApi ? 'application/json' : 'text/html'}; charset=utf-8`,
      `Content-Length: ${body.length}`,
      'Cache-Control: no-store',
      ...securityLines,
      'Connection: close',
    ].join('\r\n');
    socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), request.method === 'HEAD' ? Buffer.alloc(0) : body]));
    socket.destroy();
  };
}

/**
 * Every other request Node's parser refuses (Fastify's `clientErrorHandler`, decision 110): a
 * request line or headers past 16 KiB (a very long address, a big cookie), a malformed header, a
 * bad chunk, a timeout. Fastify would write English JSON; the client gets the gateway's error
 * shape in Chinese, as Node answers a parse error: written, then the connection closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', MESSAGES.headersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', MESSAGES.bodyTimeout]
        : [400, 'Bad Request', MESSAGES.malformedRequest];
  if (socket.writable) {
    const body = Buffer.from(JSON.stringify(errorBody(status, message)));
    const head = [
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${body.length}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Connection: close',
    ].join('\r\n');
    socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
  }
  socket.destroy();
}

/**
 * An address Node parsed but Fastify's router cannot read (Fastify's `frameworkErrors`): a `%`
 * not followed by two hex digits, or escapes that are not UTF-8 (`/article/%`, `/article/%E4%B9`,
 * a link cut short). Fastify would answer an English JSON echoing the address, for a page too:
 * a page gets the Chinese page 网址无效, an `/api/` address the API's JSON error. Fastify answers
 * it before any `onRequest` hook: the site's security `headers` and `x-request-id` are given here.
 */
export function unreadableAddressAnswer(headers: Readonly<Record<string, string>>) {
  return function answerUnreadableAddress(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    reply.headers(headers).header('x-request-id', request.id).header('cache-control', 'no-store');
    if (error.code !== 'FST_ERR_BAD_URL') {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).type('application/json; charset=utf-8').send(errorBody(500, MESSAGES.internal));
    }
    reply.code(400);
    if (/^\/api(\/|$|\?)/.test(request.url))
      return reply.type('application/json; charset=utf-8').send(errorBody(400, MESSAGES.unreadableAddress));
    return reply.type('text/html; charset=utf-8').send(addressPage(MESSAGES.unreadableAddress));
  };
}
