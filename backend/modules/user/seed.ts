import type { Database } from '../../db';
import { now } from '../../db/schema';
import { generatePassword, hashPassword } from '../../platform/auth/password';
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
