// `npm run bench:db-copy [-- --documents=10000]`: how long `npm run db:copy` takes to move a
// SQLite site of that many documents (with their texts, 8 KiB of Chinese each, and one member
// per ten documents) into an empty PostgreSQL database. The goal (bench/README.md): 10,000
// documents in at most 2 minutes. PostgreSQL is a throwaway cluster started here (as the
// tests start it: fsync off), so the figure is the copy's own work, not the disk's.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../backend/db';
import { copySqliteToPostgres } from '../scripts/db-copy';
import { createDatabase, startPostgresCluster } from '../tests/helpers/postgres';

const documents = Number(
  /^--documents=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--documents=')) ?? '')?.[1] ?? 10_000,
);
const users = Math.max(1, Math.ceil(documents / 10));
const TEXT = '文档的正文，用来衡量复制的速度。'.repeat(180); // 16 characters × 180 ≈ 8.4 KiB of UTF-8

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moredoc-bench-copy-'));
const cluster = await startPostgresCluster();
try {
  const { db, sqlite } = await openDatabase(dataDir);
  const ts = new Date().toISOString();
  sqlite.prepare('BEGIN').run();
  const user = sqlite.prepare('INSERT INTO user (username, password, created_at, updated_at) VALUES (?, ?, ?, ?)');
  for (let i = 1; i <= users; i += 1) user.run(`member${i}`, 'x', ts, ts);
  const document =
    sqlite.prepare(`INSERT INTO document (title, user_id, uuid, price, size, ext, status, pages, hash, created_at, updated_at)
    VALUES (?, ?, ?, 0, 4096, '.pdf', 2, 10, ?, ?, ?)`);
  const content = sqlite.prepare(
    'INSERT INTO document_content (document_id, content, created_at, updated_at) VALUES (?, ?, ?, ?)',
  );
  for (let i = 1; i <= documents; i += 1) {
    const id = Number(
      document.run(
        `文档 ${i}`,
        ((i - 1) % users) + 1,
        crypto.randomBytes(8).toString('hex'),
        crypto.randomBytes(16).toString('hex'),
        ts,
        ts,
      ).lastInsertRowid,
    );
    content.run(id, `${TEXT}${i}`, ts, ts);
  }
  sqlite.prepare('COMMIT').run();
  await db.destroy();
  const file = path.join(dataDir, 'moredoc.db');
  const size = fs.statSync(file).size;
  const url = await createDatabase(cluster.url);
  const started = performance.now();
  const result = await copySqliteToPostgres({ from: file, to: url });
  const seconds = (performance.now() - started) / 1000;
  const rows = result.tables.reduce((sum, t) => sum + t.rows, 0);
  process.stdout.write(
    `db:copy: ${documents} documents, ${users} members, ${rows} rows in ${result.tables.length} tables ` +
      `(SQLite file ${(size / 1048576).toFixed(0)} MiB): ${seconds.toFixed(1)} s (goal ≤ 120 s)\n`,
  );
} finally {
  await cluster.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
