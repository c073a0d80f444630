// The early script (web/src/early.ts) and its hand-over to the HTTP client: it must agree
// with the route table, the page image URLs and the client's request, and the client must
// take its answer over exactly once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callUrl } from '../../shared/api-call';
import { matchRoute } from '../../shared/routes';
import type { Document } from '../../shared/types/document';
import { buildQueryString, createApiClient } from '../../web/src/api/client';
import { EARLY_RESPONSES, takeEarlyResponse } from '../../web/src/api/early-responses';
import { documentCall } from '../../shared/page-data';
import { firstPageImagePath, pageImagePath } from '../../shared/page-image';
import {
  EARLY_RESPONSES_KEY,
  READER_PATH,
  READER_ROUTE,
  documentKey,
  documentRequestUrl,
  inlinedDocument,
} from '../../web/src/early';

afterEach(() => {
  delete (globalThis as Record<string, unknown>)[EARLY_RESPONSES];
});

describe('early script', () => {
  it('recognises exactly the reader route of the route table', () => {
    for (const path of [
      '/library/3/42',
      '/library/3/42/',
      '/library/1/1',
      '/library/3',
      '/library',
      '/library/0/42',
      '/library/3/042',
      '/library/3/42/x',
      '/search',
      '/',
    ]) {
      expect(READER_PATH.test(path), path).toBe(matchRoute(path)?.route.name === READER_ROUTE);
    }
    expect(READER_PATH.exec('/library/3/42')?.[1]).toBe('42');
  });

  it('builds the page images as the backend serves them, the first only for converted documents', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((x) => x.repeat(32));
    const docs: [Document, string][] = [
      [{ status: 2, attachment: { hash: a }, enable_gzip: true, preview_ext: '.svg' }, `/view/page/${a}/1.gzip.svg`],
      [{ status: 2, attachment: { hash: b }, preview_ext: '.webp', enable_gzip: true }, `/view/page/${b}/1.webp`],
      [{ status: 2, attachment: { hash: c } }, `/view/page/${c}/1.svg`],
    ];
    for (const [doc, first] of docs) {
      expect(firstPageImagePath(doc)).toBe(first);
      expect(pageImagePath(doc, 1)).toBe(first);
    }
    expect(pageImagePath({ attachment: { hash: a }, preview_ext: '.png' }, 7)).toBe(`/view/page/${a}/7.png`);
    expect(pageImagePath({ preview_ext: '.png' }, 1)).toBeUndefined();
    expect(firstPageImagePath({ status: 1, attachment: { hash: a } })).toBeUndefined();
  });

  it("asks for the document exactly as the reader's query does, under the key the client reads", () => {
    expect(documentRequestUrl('42')).toBe(`/api/v1/document?${buildQueryString({ id: 42, with_author: true })}`);
    expect(EARLY_RESPONSES_KEY).toBe(EARLY_RESPONSES);
    expect(callUrl(documentCall(42))).toBe(documentRequestUrl('42'));
    expect(documentKey('42')).toEqual(documentCall(42).key);
  });

  it('finds the document the page carries, so that it asks for nothing', () => {
    const page = document.implementation.createHTMLDocument('');
    const script = page.createElement('script');
    script.id = 'start-data';
    script.type = 'application/json';
    script.textContent = JSON.stringify({
      settings: {},
      routeData: [
        { key: ['advertisement', 'live'], data: [] },
        { key: ['document', 'detail', 42], data: { id: 42, status: 2 } },
      ],
    });
    page.body.appendChild(script);
    expect(inlinedDocument('42', page)).toEqual({ id: 42, status: 2 });
    expect(inlinedDocument('43', page)).toBeUndefined();
    script.textContent = '{oops';
    expect(inlinedDocument('42', page)).toBeUndefined();
    expect(inlinedDocument('42', document.implementation.createHTMLDocument(''))).toBeUndefined();
  });
});

describe('early answers in the HTTP client', () => {
  it('takes an early answer over once, for the same GET, instead of asking again', async () => {
    const url = '/api/v1/document?id=42&with_author=true';
    (globalThis as Record<string, unknown>)[EARLY_RESPONSES] = {
      [url]: Promise.resolve(new Response(JSON.stringify({ id: 42, title: '早到的文档' }), { status: 200 })),
    };
    const fetch = vi.fn(async () => new Response(JSON.stringify({ id: 42, title: '再问一次' }), { status: 200 }));
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch });
    expect(await client.get('/api/v1/document', { id: 42, with_author: true })).toEqual({
      ok: true,
      status: 200,
      data: { id: 42, title: '早到的文档' },
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(takeEarlyResponse(url)).toBeUndefined();
    expect(await client.get('/api/v1/document', { id: 42, with_author: true })).toMatchObject({
      data: { title: '再问一次' },
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('normalises an early failure like any other answer', async () => {
    const url = '/api/v1/document?id=9&with_author=true';
    (globalThis as Record<string, unknown>)[EARLY_RESPONSES] = {
      [url]: Promise.resolve(new Response(JSON.stringify({ code: 5, message: '文档不存在' }), { status: 404 })),
    };
    const client = createApiClient({ fetch: vi.fn() as unknown as typeof globalThis.fetch });
    expect(await client.get('/api/v1/document', { id: 9, with_author: true })).toMatchObject({
      ok: false,
      status: 404,
      data: { message: '文档不存在' },
    });
  });
});
