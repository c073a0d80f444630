import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatabaseStartError, openDatabase } from '../../backend/db';
import { JobQueue, jobKind } from '../../backend/platform/jobs/job-queue';
import { confirmableAfterClose } from '../../shared/vip';

describe('migrations', () => {
  it('refuse a database a newer version migrated, saying so and naming its migration, rather than "corrupted"', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // The site taken back to this version after a newer one ran its migrations.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw
        .prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)')
        .run('999_from_a_newer_version', new Date().toISOString());
      raw.close();
      const opening = openDatabase(dataDir);
      await expect(opening).rejects.toThrow(DatabaseStartError);
      await expect(opening).rejects.toThrow(
        /brought up to date by a newer version of the site \(migration 999_from_a_newer_version, which this version does not have\).*restore the backup taken before the upgrade/,
      );
      const after = new SQLite(path.join(dataDir, 'moredoc.db'), { readonly: true });
      expect(
        after.prepare("SELECT count(*) AS n FROM kysely_migration WHERE name = '999_from_a_newer_version'").get(),
      ).toEqual({ n: 1 });
      after.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('run a migration that landed after later ones had already run', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // A database made before 004 existed in main, but after a later one had run.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec("DROP TABLE job; DELETE FROM kysely_migration WHERE name = '004_jobs'");
      raw.close();
      const second = await openDatabase(dataDir);
      expect(await second.db.selectFrom('job').select('id').execute()).toEqual([]);
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keep the jobs queued before the fair key (029) claimable, without a key', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // The job table as it was before 029, holding a queued conversion.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec("ALTER TABLE job DROP COLUMN fair_key; DELETE FROM kysely_migration WHERE name = '029_job_fair_key'");
      const ts = new Date().toISOString();
      raw
        .prepare(
          'INSERT INTO job (kind, payload, max_attempts, run_after, dedupe_key, created_at, updated_at) VALUES (?, ?, 3, ?, ?, ?, ?)',
        )
        .run('test.old', '{"hash":"h"}', ts, 'test.old:h', ts, ts);
      raw.close();

      const second = await openDatabase(dataDir);
      const queue = new JobQueue({ db: second.db });
      const kind = jobKind<{ hash: string }>('test.old');
      const seen: string[] = [];
      queue.register(kind, ({ hash }) => {
        seen.push(hash);
      });
      const [old] = await queue.list({ kind: kind.name });
      expect(old).toMatchObject({ state: 'queued', fairKey: null });
      queue.start();
      for (let tries = 0; tries < 500 && (await queue.get(old!.id))?.state !== 'done'; tries++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await queue.stop();
      expect(seen).toEqual(['h']);
      expect((await queue.get(old!.id))?.state).toBe('done');
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('bring an older site in line: category counts of what visitors list (024, 025), VIP ends past 9999 (026)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // As a site had them before: counts of every live document and article, a VIP end past year 9999.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      const ts = new Date().toISOString();
      const user = Number(
        raw.prepare('INSERT INTO user (username, created_at, updated_at) VALUES (?, ?, ?)').run('老用户', ts, ts)
          .lastInsertRowid,
      );
      const category = (type: number, title: string) =>
        Number(
          raw
            .prepare('INSERT INTO category (type, title, doc_count, created_at, updated_at) VALUES (?, ?, 99, ?, ?)')
            .run(type, title, ts, ts).lastInsertRowid,
        );
      const documents = category(0, '文档分类');
      const articles = category(1, '文章分类');
      for (const [uuid, status, deletedAt] of [
        ['listed', 2, null],
        ['failed', 3, null],
        ['recycled', 2, ts],
      ] as const) {
        const id = raw
          .prepare(
            'INSERT INTO document (uuid, title, user_id, status, deleted_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          )
          .run(uuid, uuid, user, status, deletedAt, ts, ts).lastInsertRowid;
        raw
          .prepare(
            'INSERT INTO document_category (document_id, category_id, created_at, updated_at) VALUES (?, ?, ?, ?)',
          )
          .run(id, documents, ts, ts);
      }
      for (const [identifier, status] of [
        ['published', 1],
        ['in-review', 0],
      ] as const) {
        const id = raw
          .prepare(
            'INSERT INTO article (identifier, title, user_id, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(identifier, identifier, user, status, ts, ts).lastInsertRowid;
        raw
          .prepare('INSERT INTO article_category (article_id, category_id, created_at, updated_at) VALUES (?, ?, ?, ?)')
          .run(id, articles, ts, ts);
      }
      raw
        .prepare('INSERT INTO user_vip (user_id, start_at, end_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(user, ts, '+010421-05-09T00:16:06.000Z', ts, ts);
      raw.exec(
        "DELETE FROM kysely_migration WHERE name IN ('024_listed_category_count', '025_published_article_count', '026_vip_end_cap')",
      );
      raw.close();

      const second = await openDatabase(dataDir);
      const counts = await second.db.selectFrom('category').select(['id', 'doc_count']).orderBy('id').execute();
      expect(counts.filter((c) => c.id === documents || c.id === articles)).toEqual([
        { id: documents, doc_count: 1 },
        { id: articles, doc_count: 1 },
      ]);
      const vip = await second.db
        .selectFrom('user_vip')
        .select('end_at')
        .where('user_id', '=', user)
        .executeTakeFirst();
      expect(vip?.end_at).toBe('9999-12-31T00:00:00.000Z');
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('tell why the downloads recorded before 037 cost what they did, where that can be told', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // The download table as it was before 037: a paid download, the uploader's own, one of a document
      // priced 0 (a member's and a guest's), and a free one of a priced document (bought before, or VIP: unknown).
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec(
        "ALTER TABLE download DROP COLUMN reason; DELETE FROM kysely_migration WHERE name = '037_download_reason'",
      );
      const ts = new Date().toISOString();
      const user = (name: string) =>
        Number(
          raw.prepare('INSERT INTO user (username, created_at, updated_at) VALUES (?, ?, ?)').run(name, ts, ts)
            .lastInsertRowid,
        );
      const [uploader, member] = [user('上传者'), user('会员')];
      const document = (uuid: string, price: number) =>
        Number(
          raw
            .prepare(
              'INSERT INTO document (uuid, title, user_id, status, price, created_at, updated_at) VALUES (?, ?, ?, 2, ?, ?, ?)',
            )
            .run(uuid, uuid, uploader, price, ts, ts).lastInsertRowid,
        );
      const [priced, free] = [document('priced', 5), document('free', 0)];
      const download = (userId: number, documentId: number, isPay: number) =>
        Number(
          raw
            .prepare(
              'INSERT INTO download (user_id, document_id, is_pay, price, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
            )
            .run(userId, documentId, isPay, isPay ? 5 : 0, ts, ts).lastInsertRowid,
        );
      const rows = {
        paid: download(member, priced, 1),
        owner: download(uploader, priced, 0),
        free: download(member, free, 0),
        guest: download(0, free, 0),
        unknown: download(member, priced, 0),
      };
      raw.close();

      const second = await openDatabase(dataDir);
      const reasons = await second.db.selectFrom('download').select(['id', 'reason']).orderBy('id').execute();
      expect(reasons).toEqual([
        { id: rows.paid, reason: 'paid' },
        { id: rows.owner, reason: 'owner' },
        { id: rows.free, reason: 'free' },
        { id: rows.guest, reason: 'free' },
        { id: rows.unknown, reason: null },
      ]);
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('take the comments reviewed before 039 for told: no message about them is sent again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // The comment table as it was before 039: a top comment and replies approved, pending and rejected.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec(
        "ALTER TABLE comment DROP COLUMN reply_told; ALTER TABLE comment DROP COLUMN review_told; DELETE FROM kysely_migration WHERE name = '039_comment_told'",
      );
      const ts = new Date().toISOString();
      const comment = (parentId: number, status: number) =>
        Number(
          raw
            .prepare(
              'INSERT INTO comment (parent_id, content, document_id, type, status, user_id, created_at, updated_at) VALUES (?, ?, 1, 0, ?, 1, ?, ?)',
            )
            .run(parentId, '评论', status, ts, ts).lastInsertRowid,
        );
      const top = comment(0, 1);
      const rows = { top, approved: comment(top, 1), pending: comment(top, 0), rejected: comment(top, 2) };
      raw.close();

      const second = await openDatabase(dataDir);
      const told = await second.db
        .selectFrom('comment')
        .select(['id', 'reply_told', 'review_told'])
        .orderBy('id')
        .execute();
      expect(told).toEqual([
        { id: rows.top, reply_told: 0, review_told: 1 },
        { id: rows.approved, reply_told: 1, review_told: 1 },
        { id: rows.pending, reply_told: 0, review_told: 0 },
        { id: rows.rejected, reply_told: 0, review_told: 2 },
      ]);
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
  it('keep the messages written before 040 about no comment in particular (comment_id 0)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // The message table as it was before 040, holding a reply's notice.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec(
        "ALTER TABLE message DROP COLUMN comment_id; DELETE FROM kysely_migration WHERE name = '040_message_comment'",
      );
      // No member is seeded by opening the database alone: the message's user is left unchecked.
      raw.pragma('foreign_keys = OFF');
      const id = Number(
        raw
          .prepare(
            "INSERT INTO message (user_id, type, title, target_id, created_at) VALUES (1, 4, '评论有了新回复', 3, ?)",
          )
          .run(new Date().toISOString()).lastInsertRowid,
      );
      raw.close();

      const second = await openDatabase(dataDir);
      expect(await second.db.selectFrom('message').select(['id', 'comment_id']).execute()).toEqual([
        { id, comment_id: 0 },
      ]);
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
  it('leave each member one pending order (044): a transfer submitted, else the newest; the others closed as replaced', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      // The orders as a site before 044 could hold them: a pending order per plan.
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec(`DROP INDEX orders_pending_buyer;
        CREATE UNIQUE INDEX orders_pending_plan ON orders (buyer_id, plan_code) WHERE status = 0;
        DELETE FROM kysely_migration WHERE name = '044_one_pending_order'`);
      const ts = new Date().toISOString();
      const order = (buyer: number, plan: string, status: number, provider = '') =>
        Number(
          raw
            .prepare(
              `INSERT INTO orders (order_no, buyer_id, buyer_name, plan_code, plan_title, days, amount, status, provider, expires_at, created_at, updated_at)
               VALUES (?, ?, 'm', ?, ?, 30, 3000, ?, ?, ?, ?, ?)`,
            )
            .run(`NO-${buyer}-${plan}-${status}`, buyer, plan, plan, status, provider, ts, ts, ts).lastInsertRowid,
        );
      const ids = {
        olderPlan: order(2, 'month', 0),
        newerPlan: order(2, 'year', 0, 'alipay'),
        paid: order(2, 'quarter', 1),
        transfer: order(3, 'month', 0, 'manual'),
        afterTransfer: order(3, 'year', 0),
        alone: order(4, 'month', 0),
        olderTransfer: order(5, 'month', 0, 'manual'),
        newerTransfer: order(5, 'year', 0, 'manual'),
      };
      raw.close();

      const second = await openDatabase(dataDir);
      const rows = await second.db
        .selectFrom('orders')
        .select(['id', 'status', 'close_reason', 'provider'])
        .orderBy('id')
        .execute();
      // Of two transfers submitted, the older closes too, yet stays an admin's to confirm: its money may come.
      const olderTransfer = rows.find((row) => row.id === ids.olderTransfer)!;
      expect(olderTransfer).toMatchObject({ status: 2, close_reason: 'replaced' });
      expect(confirmableAfterClose(olderTransfer)).toBe(true);
      expect(confirmableAfterClose(rows.find((row) => row.id === ids.olderPlan)!)).toBe(false);
      expect(rows.map(({ provider: _, ...row }) => row)).toEqual([
        { id: ids.olderPlan, status: 2, close_reason: 'replaced' },
        { id: ids.newerPlan, status: 0, close_reason: '' },
        { id: ids.paid, status: 1, close_reason: '' },
        { id: ids.transfer, status: 0, close_reason: '' },
        { id: ids.afterTransfer, status: 2, close_reason: 'replaced' },
        { id: ids.alone, status: 0, close_reason: '' },
        { id: ids.olderTransfer, status: 2, close_reason: 'replaced' },
        { id: ids.newerTransfer, status: 0, close_reason: '' },
      ]);
      // A second pending order of a member is refused by the database itself now.
      const again = second.db
        .insertInto('orders')
        .values({
          order_no: 'NO-4-year',
          buyer_id: 4,
          buyer_name: 'm',
          plan_code: 'year',
          plan_title: 'year',
          days: 30,
          amount: 3000,
          expires_at: ts,
          created_at: ts,
          updated_at: ts,
        })
        .execute();
      await expect(again).rejects.toThrow(/UNIQUE/);
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('clear the remote avatars kept before 042 (the provider learnt every viewer), keeping uploaded ones', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-migrations-'));
    try {
      const first = await openDatabase(dataDir);
      await first.db.destroy();
      const raw = new SQLite(path.join(dataDir, 'moredoc.db'));
      raw.exec("DELETE FROM kysely_migration WHERE name = '042_remote_avatars_cleared'");
      const ts = new Date().toISOString();
      const member = (username: string, avatar: string) =>
        Number(
          raw
            .prepare('INSERT INTO user (username, password, avatar, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
            .run(username, 'x', avatar, ts, ts).lastInsertRowid,
        );
      const ids = {
        wechat: member('wechat', 'https://thirdwx.qlogo.cn/mmopen/abc/132'),
        qq: member('qq', 'http://thirdqq.qlogo.cn/g?b=oidb'),
        schemeless: member('schemeless', '//img.example.com/a.png'),
        uploaded: member('uploaded', '/uploads/a/b/c/d/e/abcdef.png'),
        none: member('none', ''),
      };
      raw.close();

      const second = await openDatabase(dataDir);
      const rows = await second.db.selectFrom('user').select(['id', 'avatar']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: ids.wechat, avatar: '' },
        { id: ids.qq, avatar: '' },
        { id: ids.schemeless, avatar: '' },
        { id: ids.uploaded, avatar: '/uploads/a/b/c/d/e/abcdef.png' },
        { id: ids.none, avatar: '' },
      ]);
      await second.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
