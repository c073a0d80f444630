import { withDatabase } from './backend';

// How tests learn the SMS codes: never from an answer (the API returns no code), but as a
// developer would, from what the log-only provider recorded: the `sms_log` row's text, read
// from the backend's SQLite file. Also moves rows back in time for the limit and expiry tests.

/** The text of the newest message to `mobile` (log-only provider), or '' when there is none. */
export async function lastSmsText(dataDir: string, mobile: string): Promise<string> {
  return withDatabase(dataDir, (db) => {
    const row = db.prepare('SELECT content FROM sms_log WHERE mobile = ? ORDER BY id DESC LIMIT 1').get(mobile) as { content: string } | undefined;
    return row?.content ?? '';
  });
}

/** The code of the newest message to `mobile`; throws when there is none. */
export async function lastSmsCode(dataDir: string, mobile: string): Promise<string> {
  const text = await lastSmsText(dataDir, mobile);
  const code = /验证码为 (\d{6})/.exec(text)?.[1];
  if (!code) throw new Error(`no SMS code sent to ${mobile} (last text: ${JSON.stringify(text)})`);
  return code;
}

/** Moves every logged message to `mobile` back by `ms` (as if sent that much earlier). */
export async function ageSmsLog(dataDir: string, mobile: string, ms: number): Promise<void> {
  await withDatabase(dataDir, (db) => {
    const rows = db.prepare('SELECT id, created_at FROM sms_log WHERE mobile = ?').all(mobile) as { id: number; created_at: string }[];
    const update = db.prepare('UPDATE sms_log SET created_at = ?, updated_at = ? WHERE id = ?');
    for (const row of rows) {
      const earlier = new Date(Date.parse(row.created_at) - ms).toISOString();
      update.run(earlier, earlier, row.id);
    }
  });
}

/** Lets every code sent to `mobile` expire. */
export async function expireSmsCodes(dataDir: string, mobile: string): Promise<void> {
  await withDatabase(dataDir, (db) => {
    db.prepare('UPDATE sms_code SET expires_at = ? WHERE mobile = ?').run(new Date(Date.now() - 1000).toISOString(), mobile);
  });
}
