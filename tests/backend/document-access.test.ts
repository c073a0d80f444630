import crypto from 'node:crypto';
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, registerMember, useBackend, type Member } from '../helpers/backend';
import {
  createDocument,
  uploader,
  waitForSearchable,
  waitForStatus,
  type CreatedDocument,
} from '../helpers/document-api';
import { creditsOf, setCredits } from '../helpers/document-fixtures';
import { fixture, repeatedPdf, textPdf } from '../helpers/documents';
import { recordedConversions } from '../helpers/recorded-conversions';

// The whole way through the real backend: a Chinese PDF is uploaded, created and converted by
// the document module (the engine's outputs recorded at its first conversion:
// tests/helpers/recorded-conversions.ts), which indexes its text; SearchDocument finds it by a word of its body
// with a highlighted snippet and stops finding documents that were disabled or deleted; a
// member with credits downloads it, pays, and the link returns the original bytes.

const backend = useBackend({ build: { converter: recordedConversions } });
const CONVERTED = 2;
const original = fs.readFileSync(fixture('chinese.pdf'));
const md5 = (bytes: Buffer) => crypto.createHash('md5').update(bytes).digest('hex');

let author: Member;
let categoryId: number;
let library: CreatedDocument;
let toDisable: CreatedDocument;
let toDelete: CreatedDocument;
let manual: CreatedDocument;

const search = (query: Record<string, string | number>) =>
  api(backend.url, 'GET', '/api/v1/document/search', { query });
const ids = (body: { document?: { id: number }[] }) => (body.document ?? []).map((d) => d.id);

beforeAll(async () => {
  author = await uploader(backend.url, backend.adminToken);
  const category = await backend.admin('POST', '/api/v1/category', { body: { title: '文学读物' } });
  expect(category.status, category.text).toBe(200);
  const categories = await backend.admin('GET', '/api/v1/category/list', { query: { wd: '文学读物' } });
  categoryId = categories.body.category[0].id;

  library = await createDocument(backend.url, author.token, original, 'chinese.pdf', {
    title: '城市图书馆年度纪事',
    price: 2,
    category_id: [categoryId],
    language: 'education',
  });
  toDisable = await createDocument(backend.url, author.token, repeatedPdf(3), 'copy-a.pdf', {
    title: '图书馆简报（待禁用）',
  });
  toDelete = await createDocument(backend.url, author.token, repeatedPdf(4), 'copy-b.pdf', {
    title: '图书馆简报（待删除）',
  });
  manual = await createDocument(backend.url, author.token, textPdf(2), 'manual.pdf', { title: 'Python入门手册' });
  for (const doc of [library, toDisable, toDelete, manual])
    await waitForStatus(backend.url, author.token, doc.id, [CONVERTED], 120_000);
  await waitForSearchable(backend.url, '麒麟', library.id);
  await waitForSearchable(backend.url, '麒麟', toDisable.id);
  await waitForSearchable(backend.url, '麒麟', toDelete.id);
  await waitForSearchable(backend.url, 'quick brown', manual.id);
}, 180_000);

describe('search over converted documents', () => {
  it('finds the PDF by a 2-character word that only its body text holds, with a highlighted snippet', async () => {
    const res = await search({ wd: '麒麟' });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expect.arrayContaining([library.id, toDisable.id, toDelete.id]));
    const hit = res.body.document.find((d: { id: number }) => d.id === library.id);
    expect(hit.title).toBe('城市图书馆年度纪事');
    expect(hit.snippet).toContain('<em>麒麟</em>');
    expect(hit.title_highlight).toBe('城市图书馆年度纪事');
    expect(hit).toMatchObject({
      uuid: library.uuid,
      attachment: { hash: md5(original) },
      category_id: [categoryId],
      category: [{ id: categoryId, title: '文学读物' }],
      username: author.username,
      price: 2,
    });
  });

  it('handles mixed queries, single characters, filters and paging', async () => {
    expect(ids((await search({ wd: 'Python手册' })).body)).toEqual([manual.id]);
    expect(ids((await search({ wd: 'quick brown' })).body)).toEqual([manual.id]);
    expect(ids((await search({ wd: '纪' })).body)).toEqual([library.id]);
    expect(ids((await search({ wd: '麒麟', category_id: categoryId })).body)).toEqual([library.id]);
    expect(ids((await search({ wd: '麒麟', language: 'education' })).body)).toEqual([library.id]);
    expect(ids((await search({ wd: '麒麟', ext: 'doc' })).body)).toEqual([]);
    expect(ids((await search({ wd: '麒麟', ext: 'pdf' })).body)).toHaveLength(3);
    const secondPage = await search({ wd: '麒麟', page: 2 });
    expect(secondPage.body.total).toBe(3);
    expect(secondPage.body.document).toBeUndefined();
  });

  it('stops finding a document once it is disabled or deleted', async () => {
    expect(
      (await backend.admin('PUT', '/api/v1/document/check', { body: { id: [toDisable.id], status: 4 } })).status,
    ).toBe(200);
    expect(
      (await api(backend.url, 'DELETE', '/api/v1/document', { token: author.token, query: { id: toDelete.id } }))
        .status,
    ).toBe(200);
    const res = await search({ wd: '麒麟' });
    expect(ids(res.body)).toEqual([library.id]);
    expect(res.body.total).toBe(1);
  });
});

describe('downloading the converted document', () => {
  it('moves the credits, records the download, and the link returns the original bytes with a Chinese name', async () => {
    const reader = await registerMember(backend.url);
    await setCredits(backend.dataDir, reader.user.id, 5);
    const authorBefore = await creditsOf(backend.dataDir, author.user.id);

    const res = await api(backend.url, 'GET', '/api/v1/document/download', {
      token: reader.token,
      query: { id: library.id },
    });
    expect(res.status, res.text).toBe(200);
    expect(await creditsOf(backend.dataDir, reader.user.id)).toBe(3);
    expect(await creditsOf(backend.dataDir, author.user.id)).toBe(authorBefore + 2);

    const file = await fetch(backend.url + res.body.url);
    expect(file.status).toBe(200);
    expect(md5(Buffer.from(await file.arrayBuffer()))).toBe(md5(original));
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="download.pdf"; filename*=UTF-8''${encodeURIComponent('城市图书馆年度纪事.pdf')}`,
    );

    const downloads = await api(backend.url, 'GET', '/api/v1/user/download', { token: reader.token });
    expect(downloads.body.download).toEqual([
      expect.objectContaining({
        document_id: library.id,
        title: '城市图书馆年度纪事',
        is_pay: true,
        document_uuid: library.uuid,
      }),
    ]);
    const doc = await backend.admin('GET', '/api/v1/document', { query: { id: library.id } });
    expect(doc.body.download_count).toBe(1);
  });

  it("keeps it among the member's favourites, counted on the document", async () => {
    const reader = await registerMember(backend.url);
    expect(
      (await api(backend.url, 'POST', '/api/v1/favorite', { token: reader.token, body: { document_id: library.id } }))
        .status,
    ).toBe(200);
    const doc = await backend.admin('GET', '/api/v1/document', { query: { id: library.id } });
    expect(doc.body.favorite_count).toBe(1);
    const disabledFavourite = await api(backend.url, 'POST', '/api/v1/favorite', {
      token: reader.token,
      body: { document_id: toDisable.id },
    });
    expect(disabledFavourite.status).toBe(404);
  });
});
