import { withDatabase } from './backend';

// How tests learn the SMS codes: never from an answer (the API returns no code), but as a
// developer would, from what the log-only provider recorded: the `sms_log` row's text, read
// from the backend's database. Also moves rows back in time for the limit and expiry tests.

/** The text of the newest message to `mobile` (log-only provider), or '' when there is none. */
export async function lastSmsText(dataDir: string, mobile: string): Promise<string> {
  return withDatabase(dataDir, async (db) => {
    const row = await db
      .selectFrom('sms_log')
      .select('content')
      .where('mobile', '=', mobile)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
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
  await withDatabase(dataDir, async (db) => {
    const rows = await db.selectFrom('sms_log').select(['id', 'created_at']).where('mobile', '=', mobile).execute();
    for (const row of rows) {
      const earlier = new Date(Date.parse(row.created_at) - ms).toISOString();
      await db
        .updateTable('sms_log')
        .set({ created_at: earlier, updated_at: earlier })
        .where('id', '=', row.id)
        .execute();
    }
  });
}

/** Lets every code sent to `mobile` expire. */
export async function expireSmsCodes(dataDir: string, mobile: string): Promise<void> {
  await withDatabase(dataDir, (db) =>
    db
      .updateTable('sms_code')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('mobile', '=', mobile)
      .execute(),
  );
}
