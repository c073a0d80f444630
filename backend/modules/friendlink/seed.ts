import type { Database } from '../../db';
import { now } from '../../db/schema';

// The friend links of a new site (none are added once the table has rows).

const FRIENDLINKS = [
  { title: '摩枫网络科技', link: 'https://mnt.ltd' },
  { title: '书栈网', link: 'https://www.bookstack.cn' },
];

export async function seedFriendlinks(db: Database): Promise<void> {
  if (await db.selectFrom('friendlink').select('id').limit(1).executeTakeFirst()) return;
  const ts = now();
  await db
    .insertInto('friendlink')
    .values(
      FRIENDLINKS.map((f) => ({
        ...f,
        description: '',
        sort: 0,
        enable: 1,
        created_at: ts,
        updated_at: ts,
      })),
    )
    .execute();
}
