import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { api, login, setConfig, startBackend, TEST_ENGINE, useBackend, withDatabase } from '../helpers/backend';
import { parseXml, texts } from '../helpers/xml';
import type { BlobStore } from '../../backend/platform/blobs/blob-store';
import { JobQueue } from '../../backend/platform/jobs/job-queue';
import { SITEMAP_REFRESH_WINDOW_MS, scheduleSitemapRefresh } from '../../backend/modules/sitemap/refresh';

// The sitemaps (index, documents, articles, categories): written by PUT /api/v1/sitemap and
// by the jobs after content changes, served at /sitemap.xml and /sitemap/*.

const DOMAIN = 'https://docs.example.com';
// The address the gateway is told is the first 网站域名 (no domain: no sitemaps).
// JOB_POLL_MS: a job the tests make due is taken within 0.1 s, not the default 1 s.
const backend = useBackend({ env: { PUBLIC_ORIGIN: DOMAIN, JOB_POLL_MS: '100' } });
const { admin } = backend;
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** Makes the queued `kind` job due now (jobs wait for their window); how many there were. */
function bringJobForward(kind: string): Promise<number> {
  return withDatabase(backend.dataDir, async (db) =>
    Number(
      (
        await db
          .updateTable('job')
          .set({ run_after: new Date(0).toISOString() })
          .where('kind', '=', kind)
          .where('state', '=', 'queued')
          .executeTakeFirst()
      ).numUpdatedRows,
    ),
  );
}

async function sitemapFile(name: string): Promise<Document> {
  const res = await fetch(`${backend.url}/sitemap/${name}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
  const doc = parseXml(await res.text());
  expect(doc.documentElement.tagName).toBe('urlset');
  expect(doc.documentElement.namespaceURI).toBe(NS);
  return doc;
}

async function index(url = backend.url): Promise<string[]> {
  const res = await fetch(`${url}/sitemap.xml`);
  expect(res.status).toBe(200);
  const doc = parseXml(await res.text());
  expect(doc.documentElement.tagName).toBe('sitemapindex');
  expect(doc.documentElement.namespaceURI).toBe(NS);
  return texts(doc, 'loc');
}

/** Documents and articles go in by SQL: an upload and its conversion would only slow this down. */
async function seedContent(): Promise<{ categories: number[] }> {
  for (const [title, type] of [
    ['教育资料', 0],
    ['考试真题', 0],
    ['公告', 1],
  ] as const) {
    expect((await admin('POST', '/api/v1/category', { body: { title, type } })).status).toBe(200);
  }
  const list = await admin('GET', '/api/v1/category/list', { query: { type: [0, 1] } });
  const ids = (list.body.category as { id: number; title: string }[]).map((c) => c.id);
  expect(
    (await admin('POST', '/api/v1/category', { body: { title: '小学', type: 0, parent_id: ids[0] } })).status,
  ).toBe(200);
  const child = (await admin('GET', '/api/v1/category/list', { query: { wd: '小学' } })).body.category[0].id as number;
  ids.push(child);
  await withDatabase(backend.dataDir, async (db) => {
    const ts = '2026-03-04T05:06:07.000Z';
    const doc = (id: number, title: string, status: number, deleted_at: string | null, updated_at = ts) => ({
      id,
      title,
      uuid: `u${id}`,
      user_id: 0,
      status,
      deleted_at,
      created_at: ts,
      updated_at,
    });
    await db
      .insertInto('document')
      .values([
        doc(10, '已转换', 2, null),
        doc(11, '已禁用', 4, null),
        doc(12, '已删除', 2, ts),
        doc(13, '两个分类', 2, null, '2026-05-01T00:00:00.000Z'),
        doc(14, '未分类', 2, null),
        doc(15, '转换失败', 3, null),
      ])
      .execute();
    // 10: filed under a sub-category first, then its parent: its page is under the deeper one.
    // 13: two top-level categories: the page is under the last.
    const links = [
      [10, child],
      [10, ids[0]!],
      [11, ids[0]!],
      [12, ids[0]!],
      [13, ids[0]!],
      [13, ids[1]!],
      [15, ids[0]!],
    ];
    for (const [document_id, category_id] of links) {
      await db
        .insertInto('document_category')
        .values({ document_id: document_id!, category_id: category_id!, created_at: ts, updated_at: ts })
        .execute();
    }
    await db.deleteFrom('article').execute(); // the seeded footer pages give way to the test's own articles
    const article = (identifier: string, title: string, status: number, deleted_at: string | null) => ({
      identifier,
      title,
      user_id: 0,
      status,
      deleted_at,
      created_at: ts,
      updated_at: ts,
    });
    await db
      .insertInto('article')
      .values([
        article('about', '关于我们', 1, null),
        article('draft', '草稿', 0, null),
        article('gone', '已删除', 1, ts),
      ])
      .execute();
  });
  return { categories: ids };
}

describe('sitemaps', () => {
  it('are written at start, by the first watch', async () => {
    await expect.poll(async () => (await fetch(`${backend.url}/sitemap.xml`)).status, { timeout: 10_000 }).toBe(200);
    expect((await index()).every((loc) => loc.startsWith(`${DOMAIN}/sitemap/`))).toBe(true);
  });

  it('refuse to be written without the site domain', async () => {
    await setConfig(backend.url, backend.adminToken, { 'system.domain': '' });
    const res = await admin('PUT', '/api/v1/sitemap');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/网站域名/);
  });

  it('list the documents strangers may see and read (not failed in conversion), the published articles and the enabled categories at their pages', async () => {
    await setConfig(backend.url, backend.adminToken, { 'system.domain': `${DOMAIN}/` });
    const { categories } = await seedContent();
    expect((await admin('PUT', '/api/v1/sitemap')).status).toBe(200);

    expect(await index()).toEqual(
      ['documents-0.xml', 'articles-0.xml', 'categories-0.xml'].map((f) => `${DOMAIN}/sitemap/${f}`),
    );
    const documents = await sitemapFile('documents-0.xml');
    expect(texts(documents, 'loc')).toEqual([
      `${DOMAIN}/library/${categories[3]}/10`,
      `${DOMAIN}/library/${categories[1]}/13`,
    ]);
    expect(texts(documents, 'lastmod')).toEqual(['2026-03-04', '2026-05-01']);
    expect(texts(await sitemapFile('articles-0.xml'), 'loc')).toEqual([`${DOMAIN}/article/detail/about`]);
    expect(texts(await sitemapFile('categories-0.xml'), 'loc')).toEqual([
      `${DOMAIN}/library/${categories[0]}`,
      `${DOMAIN}/library/${categories[1]}`,
      `${DOMAIN}/library/${categories[3]}`,
      `${DOMAIN}/article/${categories[2]}`,
    ]);
  });

  it('drop a deleted document at the next generation, and the files no longer needed', async () => {
    await withDatabase(backend.dataDir, async (db) => {
      await db
        .updateTable('document')
        .set({ deleted_at: new Date().toISOString() })
        .where('id', 'in', [10, 13])
        .execute();
      await db.updateTable('article').set({ status: 0 }).execute();
    });
    expect((await admin('PUT', '/api/v1/sitemap')).status).toBe(200);
    const listed = await index();
    expect(listed).toEqual([`${DOMAIN}/sitemap/categories-0.xml`]);
    expect((await fetch(`${backend.url}/sitemap/documents-0.xml`)).status).toBe(404);
  });

  it('follow a category change by themselves, through the job', async () => {
    await admin('POST', '/api/v1/category', { body: { title: '新分类', type: 0 } });
    const created = (await admin('GET', '/api/v1/category/list', { query: { wd: '新分类' } })).body.category[0]
      .id as number;
    // The job waits for the end of its window (30 s) to gather changes: bring it forward. At a
    // window's end the change's job may already be claimed, or queued beside the last window's:
    // whatever is queued is brought forward until the category is listed.
    await expect
      .poll(
        async () => {
          await bringJobForward('sitemap.refresh');
          return (await (await fetch(`${backend.url}/sitemap/categories-0.xml`)).text()).includes(
            `/library/${created}<`,
          );
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  });

  it('follow a published article and its deletion by themselves, through the refresh the article module asks for', async () => {
    const articles = async () => {
      const res = await fetch(`${backend.url}/sitemap/articles-0.xml`);
      return res.status === 200 ? texts(parseXml(await res.text()), 'loc') : [];
    };
    // The refresh waits for the end of its window (30 s) to gather changes: bring it forward.
    const bringForward = () => bringJobForward('sitemap.refresh');
    const created = await admin('POST', '/api/v1/article', {
      body: { title: '新版上线', identifier: 'release', content: '<p>新版本已经上线。</p>' },
    });
    expect(created.status).toBe(200);
    expect(await bringForward()).toBe(1);
    await expect.poll(articles, { timeout: 10_000 }).toContain(`${DOMAIN}/article/detail/release`);

    expect((await admin('DELETE', '/api/v1/article', { query: { id: created.body.id } })).status).toBe(200);
    expect(await bringForward()).toBe(1);
    await expect.poll(articles, { timeout: 10_000 }).not.toContain(`${DOMAIN}/article/detail/release`);
  });

  it("give a change made while its window's run is under way a run of its own, in the next window", async () => {
    // The windows of a time well ahead of the clock, so that the backend's own queue takes
    // none of these runs meanwhile, and where a window begins does not matter.
    const window = SITEMAP_REFRESH_WINDOW_MS;
    const now = (Math.floor(Date.now() / window) + 10) * window + 1_000;
    const end = new Date(now - 1_000 + window).toISOString();
    const next = new Date(now - 1_000 + 2 * window).toISOString();
    await withDatabase(backend.dataDir, async (db) => {
      const runs = () =>
        db
          .selectFrom('job')
          .select(['dedupe_key', 'state'])
          .where('kind', '=', 'sitemap.refresh')
          .where('dedupe_key', 'in', [`sitemap.refresh:${end}`, `sitemap.refresh:${next}`])
          .orderBy('dedupe_key')
          .execute();
      const jobs = new JobQueue({ db });
      try {
        // A change: one run at the end of its window; another change in that window shares it.
        await scheduleSitemapRefresh({ jobs, db }, { now });
        await scheduleSitemapRefresh({ jobs, db }, { now: now + 1_000 });
        expect(await runs()).toEqual([{ dedupe_key: `sitemap.refresh:${end}`, state: 'queued' }]);
        // As if that run had started early (brought forward, or the clock of the process running it is ahead).
        await db
          .updateTable('job')
          .set({ state: 'running' })
          .where('dedupe_key', '=', `sitemap.refresh:${end}`)
          .execute();
        await scheduleSitemapRefresh({ jobs, db }, { now: now + 2_000 });
        expect(await runs()).toEqual([
          { dedupe_key: `sitemap.refresh:${end}`, state: 'running' },
          { dedupe_key: `sitemap.refresh:${next}`, state: 'queued' },
        ]);
      } finally {
        await db
          .deleteFrom('job')
          .where('dedupe_key', 'in', [`sitemap.refresh:${end}`, `sitemap.refresh:${next}`])
          .execute();
      }
    });
  });

  it('follow any publication by themselves, through the watch that compares the content with the files', async () => {
    await withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      await db
        .insertInto('document')
        .values({ id: 20, title: '新发布', uuid: 'u20', user_id: 0, status: 2, created_at: ts, updated_at: ts })
        .execute();
      const { first } = await db
        .selectFrom('category')
        .select((eb) => eb.fn.min('id').as('first'))
        .where('type', '=', 0)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('document_category')
        .values({ document_id: 20, category_id: first, created_at: ts, updated_at: ts })
        .execute();
    });
    // The watch runs every five minutes: bring the next one forward.
    await expect.poll(() => bringJobForward('sitemap.watch'), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(
        async () => {
          const res = await fetch(`${backend.url}/sitemap/documents-0.xml`);
          return res.status === 200 && (await res.text()).includes('/20</loc>');
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  });

  it('refuse paths outside the sitemap folder', async () => {
    for (const path of ['/sitemap/..%2fmoredoc.db', '/sitemap/jwt-secret', '/sitemap/sitemap.xml.tmp']) {
      expect((await fetch(`${backend.url}${path}`)).status).toBe(404);
    }
    expect((await api(backend.url, 'PUT', '/api/v1/sitemap')).status).toBe(401);
  });
});

describe('sitemap writes at once', () => {
  it("take turns: a write that read the content earlier cannot undo a later one (an admin's 更新站点地图)", async () => {
    // The first backend's store holds the first sitemap file written once the test arms it,
    // until the test releases it: that write read the content before the change below.
    let armed = false;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holdFirstSitemapFile = (store: BlobStore): BlobStore =>
      new Proxy(store, {
        get(target, name) {
          const value: unknown = Reflect.get(target, name);
          if (name !== 'put') return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          const put: BlobStore['put'] = async (key, source, opts) => {
            if (armed && /^sitemap\/.+\.xml$/.test(key)) {
              armed = false;
              reached();
              await released;
            }
            return target.put(key, source, opts);
          };
          return put;
        },
      });
    const env = { PUBLIC_ORIGIN: DOMAIN };
    const first = await startBackend({ env, build: { blobStore: holdFirstSitemapFile } });
    // On PostgreSQL a second backend on the same database and files, as a second process is;
    // SQLite is one process's database (one backend serves it).
    const second = TEST_ENGINE === 'postgres' ? await startBackend({ env, dataDir: first.dataDir }) : first;
    try {
      const token = await login(first.url, 'admin', first.adminPassword);
      const updateSitemaps = (url: string) => api(url, 'PUT', '/api/v1/sitemap', { token });
      const category = await api(first.url, 'POST', '/api/v1/category', {
        token,
        body: { title: '教育资料', type: 0 },
      });
      expect(category.status).toBe(200);
      await withDatabase(first.dataDir, async (db) => {
        const ts = new Date().toISOString();
        await db
          .insertInto('article')
          .values({ identifier: 'release', title: '新版上线', user_id: 0, status: 1, created_at: ts, updated_at: ts })
          .execute();
      });
      expect((await updateSitemaps(first.url)).status).toBe(200);
      expect(await index(first.url)).toContain(`${DOMAIN}/sitemap/articles-0.xml`);

      armed = true;
      const earlier = updateSitemaps(first.url);
      await held;
      await withDatabase(first.dataDir, (db) => db.updateTable('article').set({ status: 0 }).execute());
      const later = updateSitemaps(second.url);
      // Time for the later write to end first, were writes not taking turns: the outcome
      // asserted below is the same however long this lasts.
      await Promise.race([later, delay(1_000)]);
      release();
      expect((await earlier).status).toBe(200);
      expect((await later).status).toBe(200);

      expect(await index(first.url)).toEqual([`${DOMAIN}/sitemap/categories-0.xml`]);
      expect((await fetch(`${first.url}/sitemap/articles-0.xml`)).status).toBe(404);
    } finally {
      release();
      if (second !== first) await second.close({ keepData: true });
      await first.close();
    }
  });
});
