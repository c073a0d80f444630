/**
 * Socket failures that mean a server (PostgreSQL, the S3 service) is down, restarting or
 * unreachable: the error codes Node gives a refused, cut or unresolvable connection. Here, at
 * the bottom of the backend's layers, so that the database and the blob store read them alike.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Whether an error's `code` is one of a server that cannot be reached. */
export function isUnreachableCode(code: unknown): boolean {
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}
