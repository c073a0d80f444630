import {
  sql,
  type OrderByModifiers,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { isUniqueViolation, type Database } from '../db';
import { engineOf } from '../db/dialect';
import type { DB } from '../db/schema';
import { cleanName, nameProblems } from '../../shared/validation';
import { addressKey, ipv6PrefixText } from '../../shared/address-key';
import { badRequest, conflict, notFound } from './errors';

// How MOREDOC reads the common request fields, for every service module: paging, sorting,
// `field` selection, LIKE patterns (docs/moredoc.md §6, §7), id lists, input checks
// with Chinese messages, and lookups by id that answer 404.

/** (page - 1) × size, kept a safe integer however large the request's numbers are. */
export function offsetOf(page: number, size: number): number {
  return page > 1 ? Math.min((page - 1) * size, Number.MAX_SAFE_INTEGER) : 0;
}

/** Generic paging: size <= 0 → every row; page <= 1 → no offset. */
function paging(page: number, size: number): { limit?: number; offset?: number } {
  if (size <= 0) return {};
  return page > 1 ? { limit: size, offset: offsetOf(page, size) } : { limit: size };
}

/** Applies `paging()` to a Kysely select query. */
export function applyPaging<Q extends { limit(n: number): Q; offset(n: number): Q }>(
  query: Q,
  page: number,
  size: number,
): Q {
  const { limit, offset } = paging(page, size);
  let q = query;
  if (limit !== undefined) q = q.limit(limit);
  if (offset !== undefined) q = q.offset(offset);
  return q;
}

export const clamp = (n: number, min: number, max: number) => Math.min(Math.max(n, min), max);

/**
 * `wd` as MOREDOC matches it: spaces become `%` unless the user already wrote one. For
 * `like()` of db/dialect.ts, whose escape character is the backslash: a backslash typed is
 * doubled, so that it matches itself on both engines.
 */
export function likePattern(wd: string): string {
  const trimmed = wd.trim().replace(/\\/g, '\\\\');
  return `%${trimmed.includes('%') ? trimmed : trimmed.replace(/\s+/g, '%')}%`;
}

/**
 * `order`/`sort` lists: `col`, `col asc`, `col desc` (bare = desc), comma-separated unless
 * `multiple` is false; unknown columns are dropped. Returns ORDER BY expressions (identifiers
 * are whitelisted, never user text). The `nullable` columns get their NULLs placed as SQLite
 * places them, first ascending and last descending, which PostgreSQL does the other way round;
 * the others are left alone, so that PostgreSQL may read them in an index's order.
 */
export function parseOrder(
  input: string,
  columns: readonly string[],
  opts: { multiple?: boolean; nullable?: readonly string[] } = {},
): { column: RawBuilder<unknown>; direction: OrderByModifiers }[] {
  const items = opts.multiple === false ? [input] : input.split(',');
  const result: { column: RawBuilder<unknown>; direction: OrderByModifiers }[] = [];
  for (const item of items) {
    const [name = '', dir = ''] = item.trim().toLowerCase().split(/\s+/);
    if (!columns.includes(name)) continue;
    const ascending = dir === 'asc';
    const direction: OrderByModifiers = !opts.nullable?.includes(name)
      ? ascending
        ? 'asc'
        : 'desc'
      : (ob) => (ascending ? ob.asc().nullsFirst() : ob.desc().nullsLast());
    result.push({ column: sql.ref(name), direction });
  }
  return result;
}

/** `field` selection: lower-cased, trimmed, filtered against the table's columns; null = all. */
export function selectedFields(requested: readonly string[], columns: readonly string[]): string[] | null {
  const picked = requested.map((f) => f.trim().toLowerCase()).filter((f) => columns.includes(f));
  return picked.length ? [...new Set(picked)] : null;
}

export function pick<T extends object>(row: T, fields: readonly string[] | null): Partial<T> {
  if (!fields) return row;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = (row as Record<string, unknown>)[f];
  return out as Partial<T>;
}

/**
 * The filters of a list that visitors see too: they get enabled rows and no search; holders
 * of the list permission filter by `enable` and `wd` as they like.
 */
export function listVisibility(
  permitted: boolean,
  enable: readonly boolean[],
  wd: string,
): { enable: number[]; wd: string } {
  return permitted ? { enable: [...new Set(enable.map((e) => (e ? 1 : 0)))], wd } : { enable: [1], wd: '' };
}

/** How many rows `query` selects, whatever its columns. */
export async function countOf<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  // Kysely cannot resolve a selection on a generic table: the cast names the one column.
  // Without ORDER BY: PostgreSQL refuses one beside an aggregate.
  const { total } = await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('total'))
    .$castTo<{ total: number }>()
    .executeTakeFirstOrThrow();
  return Number(total);
}

/**
 * How many rows `query` selects whose `ip` column (a client address, stored in full) counts as `address` for a
 * per-address limit (addressKey: an IPv6 client by its prefix of `ipv6Prefix` bits, CLIENT_IPV6_PREFIX; an IPv4-mapped
 * address as its IPv4 address). The database reads, grouped by address, the rows that may: an IPv4 client's address in
 * both spellings; for an IPv6 client its own spelling and the addresses that start as its prefix is written
 * (ipv6PrefixText: sockets and proxies write RFC 5952), a
 * range of the column's index on SQLite, a LIKE on PostgreSQL whatever its collation; this counts those of the same
 * key.
 */
export async function countFromClient<TB extends keyof DB>(
  db: Database,
  query: SelectQueryBuilder<DB, TB, object>,
  address: string,
  ipv6Prefix: number,
): Promise<number> {
  const key = addressKey(address, ipv6Prefix);
  const rows = await query
    .clearSelect()
    .clearOrderBy()
    .where(mayBeFromClient(db, address, ipv6Prefix))
    .select([sql<string>`ip`.as('ip'), sql<number>`count(*)`.as('total')])
    .groupBy(sql`ip`)
    .$castTo<{ ip: string; total: number }>()
    .execute();
  return rows.reduce((sum, row) => (addressKey(row.ip, ipv6Prefix) === key ? sum + Number(row.total) : sum), 0);
}

/** The rows whose `ip` may count as `address` (countFromClient); the address's own spelling always. */
function mayBeFromClient(db: Database, address: string, ipv6Prefix: number): RawBuilder<SqlBool> {
  const key = addressKey(address, ipv6Prefix);
  if (!key.endsWith(`/${ipv6Prefix}`)) return sql<SqlBool>`ip in (${address}, ${key}, ${`::ffff:${key}`})`;
  const prefix = ipv6PrefixText(address, ipv6Prefix);
  if (prefix === undefined) return sql<SqlBool>`ip like '%:%'`;
  // The prefix holds hex digits and colons only: no LIKE wildcard; ';' is the character after ':'.
  const sameStart =
    engineOf(db) === 'postgres'
      ? sql<SqlBool>`ip like ${`${prefix}%`}`
      : sql<SqlBool>`(ip >= ${prefix} and ip < ${`${prefix.slice(0, -1)};`})`;
  return sql<SqlBool>`(ip = ${address} or ${sameStart})`;
}

/**
 * A page of an admin's list of site content (banners, friend links) and how many rows there are:
 * enabled rows first, then by `sort`, larger first, then by id.
 */
export async function enabledFirstPage<DB, TB extends keyof DB>(
  query: SelectQueryBuilder<DB, TB, object>,
  page: number,
  size: number,
) {
  const rows = await applyPaging(
    query
      .selectAll()
      .orderBy(sql`enable`, 'desc')
      .orderBy(sql`sort`, 'desc')
      .orderBy(sql`id`, 'asc'),
    page,
    size,
  ).execute();
  return { rows, total: await countOf(query) };
}

/** Distinct positive ids. */
export function positiveIds(ids: readonly number[]): number[] {
  return [...new Set(ids.filter((id) => id > 0))];
}

export function requireIds(ids: readonly number[], what: string): number[] {
  const clean = positiveIds(ids);
  if (!clean.length) throw badRequest(`请选择要操作的${what}（参数 id）`);
  return clean;
}

// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Text validation: required, length in characters (runes), no control characters. */
export function checkText(
  value: string,
  label: string,
  opts: { required?: boolean; max?: number; min?: number; multiline?: boolean } = {},
): string {
  const text = value;
  const length = [...text].length;
  if (opts.required && text.trim() === '') throw badRequest(`${label}不能为空`);
  if (opts.min !== undefined && length < opts.min && text !== '')
    throw badRequest(`${label}长度不能少于 ${opts.min} 个字符`);
  if (opts.max !== undefined && length > opts.max) throw badRequest(`${label}长度不能超过 ${opts.max} 个字符`);
  if (CONTROL.test(text) || (!opts.multiline && /[\r\n]/.test(text))) throw badRequest(`${label}包含非法字符`);
  return text;
}

/**
 * A one-line name or title a user writes (titles, file names, usernames, category and other
 * names) in the form it is stored: cleaned by the shared rule (`cleanName`: no control or bidi
 * override characters, line breaks as spaces), then required and at most `max` characters.
 */
export function checkName(value: string, label: string, opts: { required?: boolean; max: number }): string {
  assertValid(nameProblems(value, label, opts.max, opts.required ?? false));
  return cleanName(value);
}

/** Links stored by admins (navigation, banners, friend links): site paths or http(s) URLs. */
export function checkLink(value: string, label: string, opts: { required?: boolean } = {}): string {
  const link = checkText(value.trim(), label, { required: opts.required, max: 500 });
  if (link === '') return link;
  if (!/^(\/(?!\/)|https?:\/\/|#)/i.test(link)) throw badRequest(`${label}必须是以 / 开头的站内路径或 http(s):// 链接`);
  return link;
}

/** Runs `work`; a unique-constraint violation becomes a 409 with `message`. */
export async function mapUnique<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

/** Throws one 400 listing every problem, joined with `；` like MOREDOC's validator. */
export function assertValid(problems: string[]): void {
  if (problems.length) throw badRequest(problems.join('；'));
}

/** The row of `table` with this id, or a 404 with `missing` (e.g. '轮播图不存在'). */
export async function rowOr404<T extends keyof DB>(
  db: Database,
  table: T,
  id: number,
  missing: string,
): Promise<Selectable<DB[T]>> {
  // Raw SQL because Kysely cannot type a where() on a table chosen by a type parameter.
  const {
    rows: [row],
  } = await sql<Selectable<DB[T]>>`select * from ${sql.table(table)} where id = ${id}`.execute(db);
  if (!row) throw notFound(missing);
  return row;
}
