import type { Database } from '../../db';
import { defaultGroupId, setUserGroups } from '../group/service';
import { insertUser, usernamesOf, type NewUser, type UserRow } from './store';

// What other modules may ask of the user module: finding and creating members, their names
// and public profiles, the activity log, the avatar an upload sets, credits moving (uploads,
// downloads, favourites), the document and article counts, the favourites counter, and the
// captchas of GetUserCaptcha, and whether the generated admin password still holds.

export {
  DynamicType, PUBLIC_PROFILE_COLUMNS, addCredit, addDynamic, bumpFavoriteCount, countUsers, deductCredit, existingUserIds, findUserByUsername,
  getUser, initialPasswordUnchanged, publicProfilesOf, recordLogin, setArticleCount, setCommentCounts, setDocCounts, spendCredits, updateProfile, userIdsMatching, usernamesOf, withoutPassword,
  type PublicProfile, type UserRow,
} from './store';

export { checkCaptcha } from './captcha';

/** A new member in the default group (a 503 when the site has none). */
/** The rows with the `username` of their `user_id` ('' for a user that is gone, or none). */
export async function withUsernames<Row extends { user_id: number }>(db: Database, rows: Row[]): Promise<(Row & { username: string })[]> {
  const names = await usernamesOf(db, rows.map((r) => r.user_id).filter((id) => id > 0));
  return rows.map((r) => ({ ...r, username: names.get(r.user_id) ?? '' }));
}

export async function createMember(db: Database, values: NewUser): Promise<UserRow> {
  const groupId = await defaultGroupId(db);
  const user = await insertUser(db, values);
  await setUserGroups(db, user.id, [groupId]);
  return user;
}
