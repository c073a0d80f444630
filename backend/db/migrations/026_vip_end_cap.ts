import type { Kysely } from 'kysely';
import { runStatements } from '../postgres-ddl';

// A VIP period never ends after 9999-12-31 (modules/vip/period.ts, VIP_END_MAX): stacked
// grants could push it past year 9999 before that rule, and such an end is written
// `+010421-…`, which is no RFC 3339 and sorts before every real date (the member listed as
// expired). Ends of that form are brought back to the limit once here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`UPDATE user_vip SET end_at = '9999-12-31T00:00:00.000Z' WHERE end_at LIKE '+%'`]);
}
