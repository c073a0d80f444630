import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, isStorageFull, isUnstorableText } from '../db';
import { SESSION_END_HEADER } from '../../shared/session-end';
import { ApiError, Code, codeFromHttpStatus, httpStatusFromCode, type GrpcCode } from './errors';

// The one place where errors become responses. RPC routes answer grpc-gateway's
// {"error","code","message"} with the gRPC code; upload routes (route config
// `errorShape: 'http'`) answer gin's {"code","message","error"} with the HTTP status.
// Unknown API paths and methods answer the RPC shape in Chinese too (a client shows `message`);
// other unknown paths the file routes' plain 404, as gin's static files answer.

declare module 'fastify' {
  interface FastifyContextConfig {
    errorShape?: 'grpc' | 'http';
  }
}

const INTERNAL_MESSAGE = '服务器内部错误，请稍后再试';
export const DATABASE_UNAVAILABLE = '数据库暂时不可用，请稍后再试';
const STORAGE_FULL = '服务器存储空间已满，暂时无法保存，请联系网站管理员';

/** A framework refusal's message by its code, when the status alone says too little. */
const FRAMEWORK_MESSAGES: Partial<Record<string, string>> = {
  FST_ERR_BAD_URL: '网址格式不正确（含有无法识别的 % 编码）',
  FST_ERR_MAX_PARAM_LENGTH: '网址过长',
};

/** Else by its status (as the gRPC code maps it back). */
const REFUSED_MESSAGES: Partial<Record<number, string>> = {
  400: '请求参数错误',
  403: '禁止访问',
  404: '请求的资源不存在',
  408: '请求超时',
  409: '请求冲突，请刷新后重试',
  429: '请求过于频繁，请稍后再试',
};

interface Rendered {
  status: number;
  code: GrpcCode;
  message: string;
}

function render(error: FastifyError | ApiError | Error, request: FastifyRequest): Rendered {
  if (error instanceof ApiError) {
    // A service that did not answer (the file store): its reason, in one line.
    if (error.status === 503 && error.cause instanceof Error)
      request.log.warn({ reason: error.cause.message || error.cause.name }, error.message);
    return { status: error.status, code: error.code, message: error.message };
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 429, code: Code.ResourceExhausted, message: '请求体过大（上限 4 MiB）' };
  }
  if (
    fastifyError.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' ||
    fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
  ) {
    return { status: 400, code: Code.InvalidArgument, message: '请求格式不正确' };
  }
  if (isUnstorableText(error)) return { status: 400, code: Code.InvalidArgument, message: '请求包含非法字符' };
  if (isStorageFull(error)) {
    // A fault for the operator, said without a stack: every write fails alike until room is made.
    request.log.error({ reason: error.message || (error as { code?: string }).code }, 'storage full');
    return { status: 503, code: Code.Unavailable, message: STORAGE_FULL };
  }
  if (isDatabaseUnavailable(error)) {
    // One line, not a stack per request: while the database is away every request fails alike.
    request.log.warn({ reason: error.message || (error as { code?: string }).code }, 'database unavailable');
    return { status: 503, code: Code.Unavailable, message: DATABASE_UNAVAILABLE };
  }
  if (status && status >= 400 && status < 500) {
    // Fastify's and its plugins' refusals say it in English (`'/api/v1/%ff' is not a valid url
    // component`, `Forbidden`): the client is told in Chinese, the log keeps theirs.
    request.log.debug({ err: { message: fastifyError.message, code: fastifyError.code } }, 'request refused');
    const code = codeFromHttpStatus(status);
    const httpStatus = httpStatusFromCode(code);
    return {
      status: httpStatus,
      code,
      message: FRAMEWORK_MESSAGES[fastifyError.code] ?? REFUSED_MESSAGES[httpStatus] ?? REFUSED_MESSAGES[400]!,
    };
  }
  request.log.error({ err: error }, 'unhandled error');
  return { status: 500, code: Code.Internal, message: INTERNAL_MESSAGE };
}

function sendError(reply: FastifyReply, request: FastifyRequest, rendered: Rendered) {
  if (request.routeOptions.config?.errorShape === 'http') {
    return reply
      .code(rendered.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ code: rendered.status, message: rendered.message, error: rendered.message }));
  }
  return reply
    .code(rendered.status)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify({ error: rendered.message, code: rendered.code, message: rendered.message })));
}

/**
 * An address the router cannot read (Fastify's `frameworkErrors`: a `%` without two hex digits,
 * escapes that are not UTF-8, a path parameter past its length), answered like any error:
 * under /api/ the RPC shape, elsewhere the file routes' plain text.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const rendered = render(error, request);
  if (request.url.startsWith('/api/')) return sendError(reply, request, rendered);
  return reply
    .code(rendered.status)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .send(rendered.message);
}

/**
 * A request Node's parser refuses (Fastify's `clientErrorHandler`): headers past 16 KiB, a
 * malformed header or chunk, a timeout. Answered as Fastify answers it (written, then the
 * connection closed) but in the RPC shape and in Chinese, as the gateway does (decision 110).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', Code.InvalidArgument, '请求头过大（网址或 Cookie 过长），无法处理']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', Code.Canceled, '请求接收超时，请检查网络后重试']
        : [400, 'Bad Request', Code.InvalidArgument, '请求格式不正确，无法处理'];
  if (socket.writable) {
    const body = Buffer.from(JSON.stringify({ error: message, code, message }));
    const head = [
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      'Connection: close',
    ].join('\r\n');
    socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
  }
  socket.destroy();
}

export function registerErrorHandling(app: FastifyInstance): void {
  const methodsByUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = methodsByUrl.get(route.url) ?? new Set<string>();
    for (const m of methods) known.add(m);
    methodsByUrl.set(route.url, known);
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError && error.sessionEnded) reply.header(SESSION_END_HEADER, error.sessionEnded);
    return sendError(reply, request, render(error as FastifyError, request));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/'))
      return reply
        .code(404)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send('404 page not found');
    const known = methodsByUrl.get(path);
    if (known && !known.has(request.method)) {
      reply.header('allow', [...known].join(', '));
      return sendError(reply, request, {
        status: 405,
        code: Code.Unimplemented,
        message: `该接口不支持 ${request.method} 请求`,
      });
    }
    return sendError(reply, request, { status: 404, code: Code.NotFound, message: '请求的接口不存在，请检查地址' });
  });
}
