import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { likeAny } from '../../db/dialect';
import { now, type BannerTable } from '../../db/schema';
import { countOf, enabledFirstPage, likePattern, rowOr404 } from '../../wire/request';

// The `banner` table: carousels of the website, the mini-program and the app.

export const BANNER_COLUMNS = [
  'id',
  'title',
  'path',
  'sort',
  'enable',
  'type',
  'url',
  'description',
  'created_at',
  'updated_at',
];

type BannerColumns = Omit<Insertable<BannerTable>, 'id' | 'created_at' | 'updated_at'>;

export const bannerOr404 = (db: Database, id: number) => rowOr404(db, 'banner', id, '轮播图不存在');

export async function insertBanner(db: Database, columns: BannerColumns) {
  const ts = now();
  return db
    .insertInto('banner')
    .values({ ...columns, created_at: ts, updated_at: ts })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateBanner(db: Database, id: number, columns: BannerColumns): Promise<void> {
  await db
    .updateTable('banner')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function deleteBanners(db: Database, ids: number[]): Promise<void> {
  await db.deleteFrom('banner').where('id', 'in', ids).execute();
}

export async function listBanners(
  db: Database,
  filter: { types: number[]; enable: number[]; wd: string; page: number; size: number },
) {
  let query = db.selectFrom('banner');
  if (filter.types.length) query = query.where('type', 'in', filter.types);
  if (filter.enable.length) query = query.where('enable', 'in', filter.enable);
  if (filter.wd.trim()) query = query.where(likeAny(db, ['title', 'description'], likePattern(filter.wd)));
  return enabledFirstPage(query, filter.page, filter.size);
}

export const countBanners = (db: Database) => countOf(db.selectFrom('banner'));
