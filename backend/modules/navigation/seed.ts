import type { Database } from '../../db';
import { now } from '../../db/schema';

// The fixed entries of the header menu; an entry whose link exists already is left alone.

const NAVIGATION = [
  { title: '首页', href: '/', sort: 102400 },
  { title: '文库资料', href: '/library', sort: 102300 },
  { title: '文章资讯', href: '/article', sort: 102200 },
];

export async function seedNavigation(db: Database): Promise<void> {
  const ts = now();
  for (const nav of NAVIGATION) {
    if (await db.selectFrom('navigation').select('id').where('href', '=', nav.href).executeTakeFirst()) continue;
    await db
      .insertInto('navigation')
      .values({
        ...nav,
        target: '_self',
        color: '',
        enable: 1,
        parent_id: 0,
        description: '',
        fixed: 1,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
  }
}
