import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../db';
import { now } from '../../db/schema';

// The generated signing keys (login tokens, download and password-reset links) live in the `secret` table, so
// that every backend process sharing the database signs and verifies with the same ones.
// Installs from before kept them in DATA_DIR: such a file, found at start, is moved into the
// table once (and removed), so that its tokens and links stay valid.

export type SecretName = 'jwt' | 'download' | 'reset';

/** The file DATA_DIR held a secret in before (the reset links' key never was in one). */
const LEGACY_FILES: Partial<Record<SecretName, string>> = { jwt: 'jwt-secret', download: 'download-secret' };

/** MOREDOC's seeded link keys (`download.secret_key`, `email.secret`): public knowledge, so they count as "not set". */
export const MOREDOC_DEFAULT_KEY = 'moredoc';

/** The key of a kind of link: the one an admin set of their own (`configured`), else the site's `generated` one. */
export function linkKey(configured: string, generated: string): Uint8Array {
  const own = configured.trim();
  return new TextEncoder().encode(own && own !== MOREDOC_DEFAULT_KEY ? own : generated);
}

const MIN_LENGTH = 16;

async function storedSecret(db: Database, name: SecretName): Promise<string | undefined> {
  return (await db.selectFrom('secret').select('value').where('name', '=', name).executeTakeFirst())?.value;
}

function legacySecret(file: string): string | undefined {
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    return value.length >= MIN_LENGTH ? value : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The secret `name` of this site: the stored one; else the legacy file's, moved into the
 * table; else 48 random bytes (base64url) generated now. Processes starting at once agree:
 * the first insert wins and every one of them reads it back.
 */
export async function sharedSecret(db: Database, name: SecretName, dataDir: string): Promise<string> {
  const legacyName = LEGACY_FILES[name];
  const file = legacyName === undefined ? undefined : path.join(dataDir, legacyName);
  const legacy = file === undefined ? undefined : legacySecret(file);
  let stored = await storedSecret(db, name);
  if (stored === undefined) {
    const candidate = legacy ?? crypto.randomBytes(48).toString('base64url');
    await db
      .insertInto('secret')
      .values({ name, value: candidate, created_at: now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    stored = (await storedSecret(db, name))!;
  }
  // Moved: the table holds it now. A file that differs (another install's) is left alone.
  if (file !== undefined && legacy !== undefined && legacy === stored) fs.rmSync(file, { force: true });
  return stored;
}
