import type { Insertable } from 'kysely';
import type { Database } from '../../db';
import { like } from '../../db/dialect';
import { now, type ReportTable } from '../../db/schema';
import { applyPaging, countOf, likePattern, rowOr404 } from '../../wire/request';

// The `report` table: what readers reported (documents, and articles: `type`, ours), with
// the reporter's words (`description`) and the admin's note once handled (`remark`). A
// partial unique index allows one open report per reporter and target.

type NewReport = Omit<Insertable<ReportTable>, 'id' | 'status' | 'remark' | 'created_at' | 'updated_at'>;

export const reportOr404 = (db: Database, id: number) => rowOr404(db, 'report', id, '举报不存在');

export async function insertReport(db: Database, report: NewReport): Promise<void> {
  const ts = now();
  await db
    .insertInto('report')
    .values({ ...report, status: 0, remark: '', created_at: ts, updated_at: ts })
    .execute();
}

export async function handleReport(
  db: Database,
  id: number,
  columns: { status: number; remark: string },
): Promise<void> {
  await db
    .updateTable('report')
    .set({ ...columns, updated_at: now() })
    .where('id', '=', id)
    .execute();
}

export async function deleteReports(db: Database, ids: readonly number[]): Promise<void> {
  await db
    .deleteFrom('report')
    .where('id', 'in', [...ids])
    .execute();
}

export async function listReports(
  db: Database,
  filter: { statuses: number[]; types: number[]; wd: string; page: number; size: number },
) {
  let query = db.selectFrom('report');
  if (filter.statuses.length) query = query.where('status', 'in', filter.statuses);
  if (filter.types.length) query = query.where('type', 'in', filter.types);
  if (filter.wd.trim()) query = query.where(like(db, 'document_title', likePattern(filter.wd)));
  const rows = await applyPaging(query.selectAll().orderBy('id', 'desc'), filter.page, filter.size).execute();
  return { rows, total: await countOf(query) };
}

export const countReports = (db: Database) => countOf(db.selectFrom('report'));
