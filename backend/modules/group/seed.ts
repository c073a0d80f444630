import type { Database } from '../../db';
import { now } from '../../db/schema';

// The two groups of a new site: the super administrators (where the seeded admin goes) and
// the default group new members join. Members may upload from the start, so that a new site
// does not stay empty until an admin finds the switch. What members upload, comment and write
// waits for review alike (安全配置 › 内容审核 switches each); the seed runs on an empty table
// only, so an existing site keeps its own settings.

export async function seedGroups(db: Database): Promise<void> {
  if (await db.selectFrom('group').select('id').limit(1).executeTakeFirst()) return;
  const ts = now();
  await db
    .insertInto('group')
    .values([
      {
        title: '超级管理员',
        description: '系统超级管理员',
        is_default: 0,
        is_display: 1,
        enable_upload: 1,
        enable_document_review: 0,
        enable_comment: 1,
        enable_comment_approval: 0,
        enable_article: 1,
        enable_article_approval: 0,
        created_at: ts,
        updated_at: ts,
      },
      {
        title: '普通用户',
        description: '普通用户',
        is_default: 1,
        is_display: 1,
        enable_upload: 1,
        enable_document_review: 1,
        enable_comment: 1,
        enable_comment_approval: 1,
        enable_article: 1,
        enable_article_approval: 1,
        created_at: ts,
        updated_at: ts,
      },
    ])
    .execute();
}
