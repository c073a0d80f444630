import type { Database } from './db';
import { lockKeys } from './db/dialect';
import { pruneRevokedTokens } from './platform/auth/session';
import type { PermissionSeed } from './platform/rpc';
import { seedArticles } from './modules/article/seed';
import { seedConfig } from './modules/config/seed';
import { setConfigValue } from './modules/config/store';
import { seedFriendlinks } from './modules/friendlink/seed';
import { seedGroups } from './modules/group/seed';
import { seedLanguages } from './modules/language/seed';
import { seedNavigation } from './modules/navigation/seed';
import { seedPermissions } from './modules/permission/seed';
import { seedAdmin, type InitialAdmin } from './modules/user/seed';

// The idempotent seed, run at every start in one transaction (docs/moredoc.md §11): each
// module seeds its own tables. Existing data is never overwritten, so admins' edits survive
// restarts and upgrades. The order matters: the admin joins the first group.

export interface SeedOptions {
  /** The rows the services declare (app.ts's list). */
  permissions: readonly PermissionSeed[];
  configPresets: Record<string, Record<string, string>>;
  adminPassword?: string;
  passwordCost: number;
}

export interface SeedOutcome {
  initialAdmin: InitialAdmin | null;
  /** Settings whose CONFIG_<CATEGORY>_<KEY> value was not applied: they had one already. */
  presetsNotApplied: { category: string; name: string }[];
}

export async function runSeed(db: Database, options: SeedOptions): Promise<SeedOutcome> {
  return db.transaction().execute(async (trx) => {
    // Two processes starting at once on one PostgreSQL database seed one after the other.
    await lockKeys(trx, ['seed']);
    await seedGroups(trx);
    await seedPermissions(trx, options.permissions);
    const { presetsNotApplied, settings } = await seedConfig(trx, options.configPresets);
    const initialAdmin = await seedAdmin(trx, { password: options.adminPassword, passwordCost: options.passwordCost });
    await seedNavigation(trx);
    await seedLanguages(trx);
    await seedFriendlinks(trx);
    const seededPages = settings.list('release', 'seeded_pages');
    const pages = await seedArticles(trx, settings.creditName(), seededPages);
    if (pages.some((page) => !seededPages.includes(page)))
      await setConfigValue(trx, 'release', 'seeded_pages', [...new Set([...seededPages, ...pages])].join(','));
    await pruneRevokedTokens(trx);
    return { initialAdmin, presetsNotApplied };
  });
}
