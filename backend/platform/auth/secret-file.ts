import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The secret kept in `DATA_DIR/<fileName>`: read when it is there (at least 16 characters),
 * otherwise generated once (48 random bytes, base64url) and written with mode 0600.
 */
export function loadOrCreateSecret(dataDir: string, fileName: string): string {
  const file = path.join(dataDir, fileName);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 16) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return secret;
}
