import type { Database } from '../../db';
import { badRequest } from '../../wire/errors';
import type { BackendContext } from '../../platform/context';
import { defaultGroupId, setUserGroups } from '../group/service';
import { insertUser, type NewUser, type UserRow } from './store';

// What other modules may ask of the user module: finding and creating members, their names
// and public profiles, the activity log, the avatar an upload sets, the article counter, and
// the captchas of GetUserCaptcha.

export {
  DynamicType, addDynamic, countUsers, existingUserIds, findUserByUsername, getUser, publicProfilesOf, recordLogin, setArticleCount,
  updateProfile, usernamesOf, withoutPassword, type PublicProfile, type UserRow,
} from './store';

/** The actions GetUserCaptcha hands out captchas for; each has `security.enable_captcha_<kind>`. */
export const CAPTCHA_KINDS = ['register', 'login', 'find_password', 'comment', 'feedback'] as const;
export type CaptchaKind = (typeof CAPTCHA_KINDS)[number];

/** Checks the captcha of an action when the security config enables it (400 otherwise). */
export async function checkCaptcha(app: BackendContext, kind: CaptchaKind, id: string, answer: string, consume: boolean): Promise<void> {
  const cfg = await app.settings.snapshot();
  if (!cfg.bool('security', `enable_captcha_${kind}`)) return;
  if (!id || !answer) throw badRequest('请输入验证码');
  if (!app.captcha.verify(id, answer, consume)) throw badRequest('验证码错误');
}

/** A new member in the default group (a 503 when the site has none). */
export async function createMember(db: Database, values: NewUser): Promise<UserRow> {
  const groupId = await defaultGroupId(db);
  const user = await insertUser(db, values);
  await setUserGroups(db, user.id, [groupId]);
  return user;
}
