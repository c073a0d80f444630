// `npm run admin:password`: a new password for the `admin` account (user 1) of the site in
// DATA_DIR (or DATABASE_URL), for an owner who lost the one the first start printed: the one in
// ADMIN_PASSWORD, or one generated and printed here once. The site may keep running; the admin's
// sessions end, and the dashboard asks again for a generated password to be changed.
// From a build and in the Docker image (no tsx there): `node dist/server/scripts/admin-password.mjs`
// (scripts/build-server.ts bundles it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadBackendConfig } from '../backend/config';
import { openDatabase, openPostgres } from '../backend/db';
import { resetAdminPassword } from '../backend/modules/user/seed';
import { DEFAULT_PASSWORD_COST } from '../backend/platform/auth/password';
import { commandName, commandOptions } from './command-options';

const USAGE = `${commandName('admin:password', import.meta.url, false)}  (DATA_DIR or DATABASE_URL name the site; ADMIN_PASSWORD, the password to set)`;

/** Sets the admin's new password; answers the lines to print. */
export async function adminPassword(
  env: Record<string, string | undefined>,
  passwordCost = DEFAULT_PASSWORD_COST,
): Promise<string> {
  const config = loadBackendConfig(env);
  // A mistyped DATA_DIR must not get a new, empty site database (and folder) made by the open.
  const sqliteFile = join(config.dataDir, 'moredoc.db');
  if (!config.database && !existsSync(sqliteFile)) {
    throw new ConfigError(
      `No site database in ${config.dataDir} (no moredoc.db): give the site's DATA_DIR or DATABASE_URL`,
    );
  }
  const opened = config.database
    ? await openPostgres({ url: config.database.url, label: config.database.label, poolSize: 1 })
    : await openDatabase(config.dataDir);
  try {
    const admin = await resetAdminPassword(opened.db, { password: config.adminPassword, passwordCost });
    const where = config.database ? config.database.label : config.dataDir;
    if (!admin) throw new ConfigError(`No admin account in ${where}: start the site once to create it`);
    return admin.generated
      ? `New password of "${admin.username}" (${where}): ${admin.password}\n(shown only this once: change it after logging in)\n`
      : `The password of "${admin.username}" (${where}) is now the one in ADMIN_PASSWORD\n`;
  } finally {
    await opened.db.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  Promise.resolve()
    .then(() => (commandOptions(process.argv.slice(2), {}, USAGE) ? adminPassword(process.env) : ''))
    .then(
      (text) => process.stdout.write(text),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
}
