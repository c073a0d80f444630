// HTTP headers of file answers that the browser saves or resumes: `Content-Disposition` with a
// Chinese file name (RFC 6266, RFC 8187) and a single byte range (RFC 9110 §14).
import { cleanName } from '../../shared/validation';

const PATH_SEPARATORS = /[/\\]/g;

const MAX_NAME_CHARACTERS = 200;
const EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

/**
 * A file name fit for a header: cleaned as stored names are (no control or bidi override
 * characters, line breaks as spaces: names stored before that rule too), no path
 * separators, at most 200 characters: a longer one keeps its beginning and its extension.
 */
export function safeFileName(name: string): string {
  const cleaned = cleanName(name).replace(PATH_SEPARATORS, '_');
  const characters = [...cleaned];
  if (characters.length <= MAX_NAME_CHARACTERS) return cleaned || 'download';
  const ext = EXTENSION.exec(cleaned)?.[0] ?? '';
  return characters.slice(0, MAX_NAME_CHARACTERS - ext.length).join('') + ext;
}

/** RFC 8187 `value-chars`: what encodeURIComponent leaves alone, minus `'()*`. */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The ASCII stand-in for old clients: non-ASCII runs become `_`, quotes and `%` too. */
function asciiFallback(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && /^\.[A-Za-z0-9]{1,16}$/.test(name.slice(dot)) ? name.slice(dot) : '';
  const stem = (ext ? name.slice(0, dot) : name).replace(/[^\x20-\x7e]+/g, '_').replace(/["%\\]/g, '_');
  return (/[A-Za-z0-9]/.test(stem) ? stem : 'download') + ext;
}

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded name>`; a pure
 * ASCII name without quotes or `%` needs only the first part.
 */
export function attachmentDisposition(fileName: string): string {
  const name = safeFileName(fileName);
  const fallback = asciiFallback(name);
  if (fallback === name) return `attachment; filename="${name}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(name)}`;
}

/** Inclusive byte positions, as in `Content-Range: bytes start-end/size`. */
export interface ResolvedRange {
  start: number;
  end: number;
}

/**
 * The one range a `Range` header asks for within `size` bytes: null when there is no usable
 * header (absent, malformed, another unit, several ranges — the whole file is then sent),
 * 'unsatisfiable' when it starts past the end (416).
 */
export function parseByteRange(header: string | undefined, size: number): ResolvedRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(size - length, 0), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
