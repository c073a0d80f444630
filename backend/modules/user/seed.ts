import type { Database } from '../../db';
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
export async function seedAdmin(db: Database, opts: { password?: string; passwordCost: number }): Promise<InitialAdmin | null> {
  if (await db.selectFrom('user').select('id').limit(1).executeTakeFirst()) return null;
  const password = opts.password ?? generatePassword();
  const admin = await insertUser(db, { username: 'admin', password: await hashPassword(password, opts.passwordCost) });
  await setUserGroups(db, admin.id, [await firstGroupId(db)]);
  return { username: 'admin', password, generated: opts.password === undefined };
}
