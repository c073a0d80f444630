import { badRequest } from './errors';
import type { AnyMessage, EnumSpec, FieldSpec, Fields, Infer, Loose, MessageType } from '../../shared/wire';

// The encoder (responses: snake_case, zero values omitted, RFC 3339) and the two decoders
// (strict JSON bodies, Go-style query strings) of the message descriptions in shared/wire.ts.
export { Empty, message } from '../../shared/wire';
export type {
  Decoded,
  EmptyMessage,
  Encodable,
  EnumSpec,
  FieldSpec,
  Fields,
  Infer,
  Loose,
  MessageType,
} from '../../shared/wire';

function isMessage(spec: FieldSpec): spec is AnyMessage {
  return typeof spec === 'object' && 'fields' in spec;
}
function isRepeatedMessage(spec: FieldSpec): spec is readonly [AnyMessage] {
  return Array.isArray(spec);
}
function isEnum(spec: FieldSpec): spec is EnumSpec {
  return typeof spec === 'object' && 'enum' in spec;
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

// ---------------------------------------------------------------------------------------
// Encoding (responses)

/** Go's RFC3339Nano: whole seconds unless there is a fraction, trailing zeros trimmed. */
function formatTimestamp(value: string | Date): string | undefined {
  const date = value instanceof Date ? value : new Date(value);
  const ms = date.getTime();
  if (Number.isNaN(ms)) return undefined;
  const iso = date.toISOString(); // 2024-05-01T10:20:30.120Z
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return iso.slice(0, 19) + (fraction ? `.${fraction}` : '') + 'Z';
}

function encodeScalar(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case 'int32':
    case 'int64':
    case 'float': {
      const n = typeof value === 'bigint' ? Number(value) : Number(value);
      return Number.isFinite(n) && n !== 0 ? n : undefined;
    }
    case 'bool':
      return value === true || value === 1 || value === '1' ? true : undefined;
    case 'string':
      return typeof value === 'string' && value !== '' ? value : value === '' ? undefined : String(value);
    case 'time':
      return typeof value === 'string' || value instanceof Date ? formatTimestamp(value) : undefined;
    default:
      return undefined;
  }
}

export function encode<F extends Fields>(
  type: MessageType<F>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  value: Loose<F> | Record<string, any>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const [name, spec] of Object.entries(type.fields)) {
    const raw = source[name];
    if (raw === null || raw === undefined) continue;
    let encoded: unknown;
    if (isRepeatedMessage(spec)) {
      const items = (raw as unknown[]).map((item) => encode(spec[0], item as Record<string, unknown>));
      encoded = items.length ? items : undefined;
    } else if (isMessage(spec)) {
      encoded = encode(spec, raw as Record<string, unknown>);
    } else if (isEnum(spec)) {
      encoded = encodeScalar('int32', raw);
    } else if (spec.endsWith('[]')) {
      const base = spec.slice(0, -2);
      // Inside arrays zero values stay (only the array itself is omitted when empty).
      const items = (raw as unknown[]).map((item) =>
        base === 'bool' ? Boolean(item) : base === 'string' ? String(item ?? '') : Number(item),
      );
      encoded = items.length ? items : undefined;
    } else {
      encoded = encodeScalar(spec, raw);
    }
    if (encoded !== undefined) out[name] = encoded;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Decoding helpers shared by body and query

const INT_RANGE = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
} as const;

function checkInt(kind: 'int32' | 'int64', n: number, field: string): number {
  const [min, max] = INT_RANGE[kind];
  if (!Number.isInteger(n)) throw badRequest(`参数 ${field} 必须是整数`);
  if (n < min || n > max) throw badRequest(`参数 ${field} 超出取值范围`);
  return n;
}

function zeroValue(spec: FieldSpec): unknown {
  if (isRepeatedMessage(spec)) return [];
  if (isMessage(spec)) return null;
  if (isEnum(spec)) return 0;
  if (spec.endsWith('[]')) return [];
  switch (spec) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'time':
      return null;
    default:
      return 0;
  }
}

function zeroOf<F extends Fields>(type: MessageType<F>): Infer<F> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(type.fields)) out[name] = zeroValue(spec);
  return out as Infer<F>;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

function parseTimestamp(value: string, field: string): Date {
  const date = RFC3339.test(value) ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) {
    throw badRequest(`参数 ${field} 不是有效的时间（RFC 3339 格式，如 2024-05-01T10:20:30+08:00）`);
  }
  return date;
}

// An unpaired surrogate (a string cut inside a character, as `slice` cuts an emoji) is no
// character: SQLite would keep its bytes, PostgreSQL a replacement character, and the site show
// "�" where the text was. It is refused, as any invalid text.
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function checkString(value: string, field: string): string {
  if (UNPAIRED_SURROGATE.test(value)) throw badRequest(`参数 ${field} 含有无效字符（不完整的 Unicode 字符）`);
  return value;
}

/**
 * The most items a repeated field takes: ten times the largest page a screen selects from. An id
 * list is bound as one variable per id, and SQLite takes 32 766 at most, PostgreSQL 65 535: past
 * them a query fails, so that a list this long is refused before any query runs.
 */
export const MAX_REPEATED = 1000;

function checkRepeated(count: number, field: string): void {
  if (count > MAX_REPEATED) throw badRequest(`参数 ${field} 一次最多 ${MAX_REPEATED} 项，收到 ${count} 项`);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A request body's bytes as text: invalid UTF-8 is refused, not stored as "�". */
export function bodyText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('请求体不是有效的 UTF-8 文本');
  }
}

// ---------------------------------------------------------------------------------------
// JSON bodies: gogo jsonpb strict mode (README §3.2)

function jsonScalar(type: string, value: unknown, field: string): unknown {
  switch (type) {
    case 'int32':
    case 'int64': {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)
            ? Number(value)
            : NaN;
      if (Number.isNaN(n)) throw badRequest(`参数 ${field} 必须是整数`);
      return checkInt(type, n, field);
    }
    case 'float': {
      const n =
        typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw badRequest(`参数 ${field} 必须是数字`);
      return n;
    }
    case 'bool':
      if (typeof value !== 'boolean') throw badRequest(`参数 ${field} 必须是布尔值 true 或 false`);
      return value;
    case 'string':
      if (typeof value !== 'string') throw badRequest(`参数 ${field} 必须是字符串`);
      return checkString(value, field);
    case 'time':
      if (typeof value !== 'string')
        throw badRequest(`参数 ${field} 必须是时间字符串（RFC 3339 格式，如 2024-05-01T10:20:30+08:00）`);
      return parseTimestamp(value, field);
    default:
      throw badRequest(`参数 ${field} 类型不支持`);
  }
}

function jsonField(spec: FieldSpec, value: unknown, field: string): unknown {
  if (isRepeatedMessage(spec) || (typeof spec === 'string' && spec.endsWith('[]'))) {
    if (!Array.isArray(value)) throw badRequest(`参数 ${field} 必须是数组`);
    checkRepeated(value.length, field);
    return value.map((item, i) => {
      if (item === null) throw badRequest(`参数 ${field}[${i}] 不能为 null`);
      return isRepeatedMessage(spec)
        ? decodeJsonObject(spec[0], item)
        : jsonScalar((spec as string).slice(0, -2), item, field);
    });
  }
  if (isMessage(spec)) return decodeJsonObject(spec, value);
  if (isEnum(spec)) {
    if (typeof value === 'string' && value in spec.enum) return spec.enum[value];
    const n = jsonScalar('int32', value, field) as number;
    if (!Object.values(spec.enum).includes(n)) throw badRequest(`参数 ${field} 取值无效`);
    return n;
  }
  return jsonScalar(spec as string, value, field);
}

function decodeJsonObject<F extends Fields>(type: MessageType<F>, input: unknown): Infer<F> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw badRequest(`请求参数必须是 JSON 对象（v1.${type.name}）`);
  }
  const out = zeroOf(type) as Record<string, unknown>;
  const names = new Map<string, string>();
  for (const name of Object.keys(type.fields)) {
    names.set(name, name);
    names.set(camel(name), name);
  }
  const seenCamel = new Set<string>();
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const name = names.get(key);
    if (name === undefined) throw badRequest(`unknown field "${key}" in v1.${type.name}`);
    if (value === null) continue;
    const isCamel = key !== name;
    if (!isCamel && seenCamel.has(name)) continue; // the camelCase spelling wins
    if (isCamel) seenCamel.add(name);
    out[name] = jsonField(type.fields[name]!, value, name);
  }
  return out as Infer<F>;
}

/**
 * How deep a body's arrays and objects may nest: no message goes past 4 levels. JSON.parse takes
 * seconds over 4 MiB of `[[[[…` (2.6 s for 1.9 million levels), the whole process's event loop
 * with it, where this scan takes milliseconds.
 */
export const MAX_BODY_DEPTH = 32;

function nestsTooDeep(raw: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > MAX_BODY_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/** Decodes a raw request body (string, possibly empty) into a message. */
export function decodeBody<F extends Fields>(type: MessageType<F>, raw: string | undefined): Infer<F> {
  if (raw === undefined || raw.trim() === '') return zeroOf(type);
  if (nestsTooDeep(raw)) throw badRequest(`请求体的嵌套层级过深（最多 ${MAX_BODY_DEPTH} 层）`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('请求体不是有效的 JSON');
  }
  return decodeJsonObject(type, parsed);
}

// ---------------------------------------------------------------------------------------
// Query strings: grpc-gateway v1 PopulateQueryParameters (README §3.3)

function parseGoInt(raw: string, kind: 'int32' | 'int64', field: string): number {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[1-9][0-9]*|0)$/.exec(raw);
  if (!m) throw badRequest(`参数 ${field} 必须是整数，收到“${raw}”`);
  const body = m[2]!;
  let n: number;
  if (/^0[xX]/.test(body)) n = parseInt(body.slice(2), 16);
  else if (/^0[bB]/.test(body)) n = parseInt(body.slice(2), 2);
  else if (/^0[oO]/.test(body)) n = parseInt(body.slice(2), 8);
  else if (body.length > 1 && body.startsWith('0')) n = parseInt(body.slice(1), 8);
  else n = Number(body);
  return checkInt(kind, m[1] === '-' ? -n : n, field);
}

function queryScalar(type: string, raw: string, field: string): unknown {
  switch (type) {
    case 'int32':
    case 'int64':
      return parseGoInt(raw, type, field);
    case 'float': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      if (!Number.isFinite(n)) throw badRequest(`参数 ${field} 必须是数字，收到“${raw}”`);
      return n;
    }
    case 'bool':
      if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true;
      if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false;
      throw badRequest(`参数 ${field} 必须是布尔值，收到“${raw}”`);
    case 'string':
      return checkString(raw, field);
    case 'time':
      return parseTimestamp(raw, field);
    default:
      return undefined;
  }
}

/** Decodes a parsed query object (`key → string | string[]`) into a message. Unknown keys are ignored. */
export function decodeQuery<F extends Fields>(type: MessageType<F>, query: Record<string, unknown>): Infer<F> {
  const out = zeroOf(type) as Record<string, unknown>;
  const names = new Map<string, string>();
  for (const name of Object.keys(type.fields)) {
    names.set(name, name);
    names.set(camel(name), name);
  }
  for (const [key, rawValue] of Object.entries(query)) {
    const bracket = /^([A-Za-z0-9_]+)\[/.exec(key);
    if (bracket && names.has(bracket[1]!)) {
      throw badRequest(`参数 ${bracket[1]} 的数组请使用重复的键名传递（如 ${bracket[1]}=1&${bracket[1]}=2）`);
    }
    const name = names.get(key);
    if (name === undefined) continue;
    const spec = type.fields[name]!;
    if (typeof spec !== 'string' && !isEnum(spec)) continue; // nested messages are not addressable here
    const values = (Array.isArray(rawValue) ? rawValue : [rawValue]).map(String);
    if (typeof spec === 'string' && spec.endsWith('[]'))
      checkRepeated((out[name] as unknown[]).length + values.length, name);
    if (isEnum(spec)) {
      const v = values[0]!;
      out[name] = v in spec.enum ? spec.enum[v] : parseGoInt(v, 'int32', name);
    } else if (spec.endsWith('[]')) {
      const base = spec.slice(0, -2);
      out[name] = [...(out[name] as unknown[]), ...values.map((v) => queryScalar(base, v, name))];
    } else {
      out[name] = queryScalar(spec, values[0]!, name);
    }
  }
  return out as Infer<F>;
}
