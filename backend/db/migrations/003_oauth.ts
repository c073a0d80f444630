import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// Social sign-in (OAuthAPI, docs/api.md §5): which provider account belongs to which user,
// and the single-use `state` values handed out by the authorize call.
const statements = [
  `CREATE TABLE oauth_binding (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    provider TEXT NOT NULL,
    openid TEXT NOT NULL,
    unionid TEXT NOT NULL DEFAULT '',
    user_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (provider, openid)
  )`,
  `CREATE INDEX oauth_binding_user ON oauth_binding (user_id)`,
  `CREATE TABLE oauth_state (
    state TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX oauth_state_expires ON oauth_state (expires_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, statements);
}
