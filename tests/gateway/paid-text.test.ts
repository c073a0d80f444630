// Paid text stays paid: a priced document whose secret word is only on a page past the free
// preview (3 of 10). Nobody who may not see that page's image gets its text from any answer —
// GetDocument with or without the whole text, the lists, the home page's sections, related
// documents, search (which finds the document by the word and names the page, with no text of
// it, for everybody alike), the document page the gateway renders, its start data — while the
// owner, the admins, buyers and VIP members with the benefit read all of it. The whole site
// (gateway and embedded backend), real conversions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, registerMember, setConfig, withDatabase, type Member } from '../helpers/backend';
import {
  createDocument,
  uploader,
  waitForSearchable,
  waitForStatus,
  type CreatedDocument,
} from '../helpers/document-api';
import { insertDocument } from '../helpers/document-fixtures';
import { linesPdf, textPdf } from '../helpers/documents';
import { startSite, type Site } from '../helpers/site';
import { CRAWLER, FIXTURE_DIST, send } from './helpers';

const SECRET = 'Quokkazanzibar';
const TXT_SECRET = '青鸾密钥';

/** Ten pages, little text before page 7, which alone holds the secret. */
const pdfPages = Array.from({ length: 10 }, (_, i) => {
  const n = i + 1;
  if (n === 1) return ['Lighthouse keeping notes', 'Cover page'];
  if (n === 7) return [`The secret word is ${SECRET} and nothing else.`];
  return [`Chapter ${n}`];
});

/** A plain text MuPDF lays out on about ten A5 pages, the secret on one of the last. */
const txtLines = Array.from({ length: 360 }, (_, i) =>
  i === 320
    ? `第${i + 1}行：${TXT_SECRET}写在这里。`
    : `第${i + 1}行：城市图书馆的读者安静地读书，窗外的树影慢慢移动。`,
);

let site: Site;
let adminToken: string;
let author: Member;
let stranger: Member;
let buyer: Member;
let vip: Member;
let category: number;
let doc: CreatedDocument;
let txt: CreatedDocument;
let neighbour: CreatedDocument;
let legacy: { id: number; uuid: string; hash: string };

beforeAll(async () => {
  site = await startSite({ webDist: FIXTURE_DIST });
  adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  await setConfig(site.backendUrl, adminToken, {
    'converter.max_preview': '3',
    'vip.read_all_pages': 'true',
    'security.document_related_duration': '7',
  });
  await api(site.backendUrl, 'POST', '/api/v1/category', { token: adminToken, body: { title: '灯塔资料' } });
  category = (await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: '灯塔资料' } })).body
    .category[0].id;
  author = await uploader(site.backendUrl, adminToken);
  [stranger, buyer, vip] = [
    await registerMember(site.backendUrl),
    await registerMember(site.backendUrl),
    await registerMember(site.backendUrl),
  ];

  doc = await createDocument(site.backendUrl, author.token, linesPdf(pdfPages), 'lighthouse.pdf', {
    title: 'Lighthouse keeping',
    price: 5,
    category_id: [category],
    keywords: 'lighthouse',
  });
  txt = await createDocument(site.backendUrl, author.token, Buffer.from(txtLines.join('\n')), '读书笔记.txt', {
    title: '读书笔记',
    price: 5,
    category_id: [category],
    keywords: 'lighthouse',
  });
  neighbour = await createDocument(site.backendUrl, author.token, textPdf(2), 'neighbour.pdf', {
    title: 'Lighthouse neighbour',
    category_id: [category],
    keywords: 'lighthouse',
  });
  for (const d of [doc, txt, neighbour]) await waitForStatus(site.backendUrl, author.token, d.id, [2], 60_000);
  await waitForSearchable(site.backendUrl, 'Cover page', doc.id);
  await waitForSearchable(site.backendUrl, '树影', txt.id);
  await waitForSearchable(site.backendUrl, 'quick brown', neighbour.id);

  // Converted before the pages' texts were kept apart: one text, no page boundaries.
  const inserted = await insertDocument(site.dataDir, { userId: author.user.id, title: 'Lighthouse legacy', price: 5 });
  await withDatabase(site.dataDir, async (db) => {
    const ts = new Date().toISOString();
    await db.updateTable('document').set({ pages: 10, preview: 3 }).where('id', '=', inserted.id).execute();
    await db
      .insertInto('document_content')
      .values({
        document_id: inserted.id,
        content: `Lighthouse legacy text.\n\nChapter 2\n\nThe secret word is ${SECRET}.`,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
  });
  // Filed in the category: the document module puts it into the search index as it does every document.
  const filed = await api(site.backendUrl, 'PUT', '/api/v1/document/category', {
    token: adminToken,
    body: { document_id: [inserted.id], category_id: [category] },
  });
  expect(filed.status, filed.text).toBe(200);
  legacy = inserted;

  const ts = new Date().toISOString();
  await withDatabase(site.dataDir, (db) =>
    db
      .insertInto('download')
      .values(
        [doc.id, txt.id, legacy.id].map((id) => ({
          user_id: buyer.user.id,
          document_id: id,
          ip: '127.0.0.1',
          is_pay: 1,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute(),
  );
  const grant = await api(site.backendUrl, 'POST', '/api/v1/vip/grant', {
    token: adminToken,
    body: { user_id: [vip.user.id], days: 30, reason: '测试阅读' },
  });
  expect(grant.status, grant.text).toBe(200);
}, 180_000);

afterAll(async () => {
  await site?.close();
});

const getDocument = (token: string | undefined, query: Record<string, string | number | boolean>) =>
  api(site.backendUrl, 'GET', '/api/v1/document', { token, query });

/** Every answer a reader gets about the documents, as text. */
async function everyAnswer(token: string | undefined): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  const get = async (name: string, path: string, query: Record<string, string | number | boolean | string[]> = {}) => {
    const res = await api(site.backendUrl, 'GET', path, { token, query });
    expect(res.status, `${name}: ${res.text}`).toBe(200);
    answers[name] = res.text;
    return res;
  };
  for (const d of [doc, txt, legacy]) {
    await get(`GetDocument ${d.id}`, '/api/v1/document', { id: d.id, with_author: true });
    await get(`GetDocument ${d.id} all`, '/api/v1/document', { id: d.id, with_all_content: true });
    await get(`GetDocument ${d.uuid} all`, '/api/v1/document', { uuid: d.uuid, with_all_content: true });
    await get(`GetRelatedDocuments ${d.id}`, '/api/v1/document/related', { id: d.id });
  }
  await get('GetRelatedDocuments neighbour', '/api/v1/document/related', { id: neighbour.id });
  await get('ListDocument', '/api/v1/document/list', { size: 24 });
  await get('ListDocument category', '/api/v1/document/list', { category_id: [String(category)], size: 24 });
  await get('ListDocumentForHome', '/api/v1/document/home', { limit: 10, field: ['description'] });
  for (const wd of ['Lighthouse', SECRET, TXT_SECRET]) {
    const res = await get(`SearchDocument ${wd}`, '/api/v1/document/search', { wd });
    // `match_words` says which of the asker's own words a page past the preview holds: the query's
    // words as it holds them, never the page's text. Checked so, then left out of the text searched.
    const body = JSON.parse(res.text) as { document?: { match_words?: string[] }[] };
    for (const hit of body.document ?? []) {
      for (const word of hit.match_words ?? []) expect(wd.normalize('NFKC').toLowerCase()).toContain(word);
      delete hit.match_words;
    }
    answers[`SearchDocument ${wd}`] = JSON.stringify(body);
  }
  const cookie: Record<string, string> = token ? { cookie: `token=${token}` } : {};
  for (const d of [doc, txt, legacy]) {
    for (const [name, headers] of [
      ['crawler', CRAWLER],
      ['browser', { accept: 'text/html' }],
    ] as const) {
      const page = await send(`${site.url}/library/${category}/${d.id}`, { headers: { ...headers, ...cookie } });
      expect(page.status).toBe(200);
      answers[`page ${d.id} ${name}`] = page.text;
    }
  }
  return answers;
}

describe.each([
  ['a visitor', () => undefined],
  ['a member without rights', () => stranger.token],
])('%s', (_who, tokenOf) => {
  it('finds the secret in no answer of any RPC or page', async () => {
    const answers = await everyAnswer(tokenOf());
    for (const [name, text] of Object.entries(answers)) {
      expect(text, name).not.toContain(SECRET);
      expect(text, name).not.toContain(TXT_SECRET);
    }
  });

  it("reads the free pages' text, a form feed between pages, and a description made of them", async () => {
    const { body } = await getDocument(tokenOf(), { id: doc.id, with_all_content: true });
    expect(body.content.split('\f')).toEqual(['Lighthouse keeping notes\n\nCover page', 'Chapter 2', 'Chapter 3']);
    expect(body.description).toBe('Lighthouse keeping notes Cover page Chapter 2 Chapter 3');
    const plain = await getDocument(tokenOf(), { id: txt.id, with_all_content: true });
    expect(plain.body.content.split('\f')).toHaveLength(3);
    expect(plain.body.content).toContain('第1行：');
  });

  it('gets no text of a document converted before the pages were kept apart, nor a description from it', async () => {
    for (const withAll of [false, true]) {
      const { body } = await getDocument(tokenOf(), { id: legacy.id, with_all_content: withAll });
      expect(body.content).toBeUndefined();
      expect(body.description).toBe('Lighthouse legacy');
    }
  });

  it('sees the pages past the preview refused, through the gateway as by the backend', async () => {
    const token = tokenOf();
    const viaGateway: Record<string, string> = token ? { cookie: `token=${token}` } : {};
    const viaBackend: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    for (const [base, headers] of [
      [site.url, viaGateway],
      [site.backendUrl, viaBackend],
    ] as const) {
      expect((await send(`${base}/view/page/${doc.hash}/3.svg`, { headers })).status).toBe(200);
      expect((await send(`${base}/view/page/${doc.hash}/7.svg`, { headers })).status).toBe(403);
    }
  });

  it("gets no text past the preview from the reader: the characters' positions, find in the document", async () => {
    const token = tokenOf();
    const viaGateway: Record<string, string> = token ? { cookie: `token=${token}` } : {};
    for (const n of [3, 7, 10]) {
      const positions = await send(`${site.url}/view/page/${doc.hash}/${n}.json`, { headers: viaGateway });
      expect(positions.status).toBe(n <= 3 ? 200 : 403);
      expect(positions.text).not.toContain(SECRET);
    }
    for (const [id, word] of [
      [doc.id, SECRET],
      [txt.id, TXT_SECRET],
    ] as const) {
      const found = await send(`${site.url}/api/v1/document/find?id=${id}&wd=${encodeURIComponent(word)}`, {
        headers: viaGateway,
      });
      expect(found.status).toBe(200);
      expect(found.json()).toEqual({ readable: 3 });
    }
    // a text without page boundaries names no page: nothing is found in it
    expect(
      (await send(`${site.url}/api/v1/document/find?id=${legacy.id}&wd=${SECRET}`, { headers: viaGateway })).json(),
    ).toEqual({});
  });
});

describe.each([
  ['the owner', () => author.token],
  ['an admin', () => adminToken],
  ['a buyer', () => buyer.token],
  ['a VIP member with the benefit', () => vip.token],
])('%s', (_who, tokenOf) => {
  it('reads the whole text, with or without with_all_content', async () => {
    for (const withAll of [false, true]) {
      const pdf = (await getDocument(tokenOf(), { id: doc.id, with_all_content: withAll })).body;
      expect(pdf.content.split('\f')).toHaveLength(10);
      expect(pdf.content.split('\f')[6]).toContain(SECRET);
      // the plain text is longer than the 8,192 characters answered without with_all_content
      if (withAll)
        expect((await getDocument(tokenOf(), { id: txt.id, with_all_content: withAll })).body.content).toContain(
          TXT_SECRET,
        );
      expect((await getDocument(tokenOf(), { id: legacy.id, with_all_content: withAll })).body.content).toContain(
        SECRET,
      );
    }
  });

  it('finds the secret on its page and gets where its characters are', async () => {
    const headers = { cookie: `token=${tokenOf()}` };
    const found = (await send(`${site.url}/api/v1/document/find?id=${doc.id}&wd=${SECRET}`, { headers })).json<{
      hit: { page: number }[];
    }>();
    expect(found.hit.map((hit) => hit.page)).toEqual([7]);
    const positions = await send(`${site.url}/view/page/${doc.hash}/7.json`, { headers });
    expect(positions.status).toBe(200);
    expect(positions.text).toContain(SECRET);
  });
});

describe('searching for the secret', () => {
  const plain = (html: string) => html.replace(/<\/?em>/g, '').replace(/&(?:lt|gt|amp|quot|#39);/g, '.');

  it('finds the document by a word of a paid page, names that page and shows none of its text', async () => {
    const { body } = await api(site.backendUrl, 'GET', '/api/v1/document/search', { query: { wd: SECRET } });
    const hit = body.document.find((d: { id: number }) => d.id === doc.id);
    expect(hit.match_page).toBe(7);
    expect(hit.snippet_page).toBeUndefined();
    // the description, made from the free pages
    expect(plain(hit.snippet)).toBe('Lighthouse keeping notes Cover page Chapter 2 Chapter 3');
    // a text without page boundaries is found too; it cannot be cut at the preview: none of it is shown
    const old = body.document.find((d: { id: number }) => d.id === legacy.id);
    expect(old).toBeDefined();
    expect(old.snippet ?? '').not.toContain(SECRET);
    expect(old.snippet ?? '').not.toContain('legacy text');
    expect(old.snippet_page).toBeUndefined();
    expect(old.match_page).toBeUndefined();
  });

  it("names the page MuPDF laid the plain text's line out on", async () => {
    const pages = (await getDocument(author.token, { id: txt.id, with_all_content: true })).body.content.split(
      '\f',
    ) as string[];
    const { body } = await api(site.backendUrl, 'GET', '/api/v1/document/search', { query: { wd: TXT_SECRET } });
    const hit = body.document.find((d: { id: number }) => d.id === txt.id);
    expect(hit.snippet).not.toContain(TXT_SECRET);
    expect(hit.match_page).toBe(pages.findIndex((page) => page.includes(TXT_SECRET)) + 1);
    expect(hit.match_page).toBeGreaterThan(3);
  });
});
