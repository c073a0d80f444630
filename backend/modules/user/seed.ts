import type { Database } from '../../db';
import { now } from '../../db/schema';
import { SUPER_USER_ID } from '../../../shared/permissions';
import { generatePassword, hashPassword } from '../../platform/auth/password';
import { passwordChanged } from '../../platform/auth/session';
import { firstGroupId, setUserGroups } from '../group/service';
import { insertUser } from './store';

// The `admin` account of a new site (user 1, in the super administrators' group).

export interface InitialAdmin {
  username: string;
  password: string;
  generated: boolean;
}

/** Creates the admin when there are no users yet; its credentials are returned to be shown once. */
export async function seedAdmin(
  db: Database,
  opts: { password?: string; passwordCost: number },
): Promise<InitialAdmin | null> {
  if (await db.selectFrom('user').select('id').limit(1).executeTakeFirst()) return null;
  const password = opts.password ?? generatePassword();
  const hash = await hashPassword(password, opts.passwordCost);
  const admin = await insertUser(db, { username: 'admin', password: hash });
  await setUserGroups(db, admin.id, [await firstGroupId(db)]);
  // A generated password was printed: the dashboard asks for a new one while this one holds.
  if (opts.password === undefined)
    await db.insertInto('initial_password').values({ user_id: admin.id, password: hash, created_at: now() }).execute();
  return { username: 'admin', password, generated: opts.password === undefined };
}

/**
 * A new password for the admin (user 1), for an owner who lost the printed one
 * (`npm run admin:password`): the given one, or one generated, to be shown once and, as at the
 * first start, asked to be changed on the dashboard. The tokens issued before are refused.
 * Null when the site has no admin yet (the first start creates it).
 */
export async function resetAdminPassword(
  db: Database,
  opts: { password?: string; passwordCost: number },
): Promise<InitialAdmin | null> {
  const admin = await db.selectFrom('user').select('username').where('id', '=', SUPER_USER_ID).executeTakeFirst();
  if (!admin) return null;
  const password = opts.password ?? generatePassword();
  const hash = await hashPassword(password, opts.passwordCost);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('user')
      .set({ password: hash, updated_at: now(), ...(await passwordChanged(trx, null)) })
      .where('id', '=', SUPER_USER_ID)
      .execute();
    await trx.deleteFrom('initial_password').where('user_id', '=', SUPER_USER_ID).execute();
    if (opts.password === undefined)
      await trx
        .insertInto('initial_password')
        .values({ user_id: SUPER_USER_ID, password: hash, created_at: now() })
        .execute();
  });
  return { username: admin.username, password, generated: opts.password === undefined };
}
