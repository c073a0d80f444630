// What other modules may ask of the comment module: the count of the dashboard, and the comments
// a report names (report/routes.ts). (The comments of items deleted for good go through
// `contentChanges`: purges.ts.)
import type { Database } from '../../db';
import { ReviewStatus } from '../../../shared/constants';
import { commentsByIds } from './store';

export { countComments } from './store';

/**
 * The approved comments of `ids` (what a reader may report), each titled by the start of its text, with its
 * author (who may not report it).
 */
export async function approvedComments(
  db: Database,
  ids: number[],
): Promise<Map<number, { title: string; author: number }>> {
  const rows = await commentsByIds(db, ids);
  return new Map(
    rows
      .filter((c) => c.status === ReviewStatus.Approved)
      .map((c) => [c.id, { title: [...c.content].slice(0, 100).join(''), author: c.user_id }]),
  );
}

/** Comments of `ids` in any state, titled as above; no identifier: the admin finds one by its text. */
export async function commentTitles(
  db: Database,
  ids: number[],
): Promise<Map<number, { title: string; identifier: string }>> {
  const rows = await commentsByIds(db, ids);
  return new Map(rows.map((c) => [c.id, { title: [...c.content].slice(0, 100).join(''), identifier: '' }]));
}
