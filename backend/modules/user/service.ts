import type { Database } from '../../db';
import { defaultGroupId, setUserGroups } from '../group/service';
import { insertUser, usernamesOf, type NewUser, type UserRow } from './store';

// What other modules may ask of the user module (who a user is): finding, creating, listing
// and deleting users, their names and public profiles, passwords and sign-in records, the
// activity log, the avatar an upload sets, credits moving (uploads, downloads, favourites),
// the document and article counts, the favourites counter, the captchas of GetUserCaptcha,
// and whether the generated admin password still holds. The account module serves UserAPI
// with them.

export {
  DynamicType,
  PUBLIC_LIST_COLUMNS,
  PUBLIC_PROFILE_COLUMNS,
  addCredit,
  addDynamic,
  dynamicTitle,
  dynamicCredits,
  dynamicReward,
  bumpFavoriteCount,
  countUsers,
  deductCredit,
  deleteUsers,
  emailTaken,
  existingUserIds,
  findUserByEmail,
  findUserByMobile,
  findUserBySignInEmail,
  findUserByUsername,
  getUser,
  initialPasswordUnchanged,
  insertUser,
  listDynamics,
  listUsers,
  mobileTaken,
  publicProfilesOf,
  recordLogin,
  setArticleCount,
  setCommentCounts,
  setDocCounts,
  replacePassword,
  setPassword,
  spendCredits,
  updateProfile,
  userIdsMatching,
  userOr404,
  usernamesOf,
  withoutPassword,
  type PublicProfile,
  type UserRow,
} from './store';

export { CAPTCHA_KINDS, checkCaptcha } from './captcha';

/** A new member in the default group (a 503 when the site has none). */
/** The rows with the `username` of their `user_id` ('' for a user that is gone, or none). */
export async function withUsernames<Row extends { user_id: number }>(
  db: Database,
  rows: Row[],
): Promise<(Row & { username: string })[]> {
  const names = await usernamesOf(
    db,
    rows.map((r) => r.user_id).filter((id) => id > 0),
  );
  return rows.map((r) => ({ ...r, username: names.get(r.user_id) ?? '' }));
}

export async function createMember(db: Database, values: NewUser): Promise<UserRow> {
  const groupId = await defaultGroupId(db);
  const user = await insertUser(db, values);
  await setUserGroups(db, user.id, [groupId]);
  return user;
}
