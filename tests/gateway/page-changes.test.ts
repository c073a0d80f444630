// Kept public pages follow the backend's content changes when the backend runs in the
// gateway's process: a change made without passing through the gateway (here: through the
// backend's own port, as a job's or another client's would be) shows on the next anonymous
// page at once, although the kept pages and their data would live for ten minutes more. Over
// HTTP the backend tells the gateway nothing, and the lifetimes are the only bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartData } from '../../shared/types/start-data';
import { findAnswer } from '../../shared/api-call';
import { latestDocumentsCall } from '../../shared/page-data';
import { api, login } from '../helpers/backend';
import { createDocument, uploader, waitForStatus } from '../helpers/document-api';
import { textPdf } from '../helpers/documents';
import { recordedConversions } from '../helpers/recorded-conversions';
import { startSite, type Site } from '../helpers/site';
import { FIXTURE_DIST, send } from './helpers';

const BROWSER = { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' };
/** Far longer than any test: a page that changes did not wait for its time. */
const LONG = { startDataTtlMs: 600_000, routeDataTtlMs: 600_000 };

function startDataOf(html: string): StartData {
  return JSON.parse(/id="start-data">(.*?)<\/script>/s.exec(html)![1]!) as StartData;
}

async function home(site: Site): Promise<StartData> {
  const res = await send(`${site.url}/`, { headers: BROWSER });
  expect(res.status).toBe(200);
  return startDataOf(res.text);
}

const titlesOf = (data: StartData) => data.categories.map((c) => c.title);

async function renameCategory(site: Site, token: string, id: number, title: string): Promise<void> {
  const res = await api(site.backendUrl, 'PUT', '/api/v1/category', { token, body: { id, title, enable: true } });
  expect(res.status).toBe(200);
}

async function newCategory(site: Site, token: string, title: string): Promise<number> {
  expect((await api(site.backendUrl, 'POST', '/api/v1/category', { token, body: { title } })).status).toBe(200);
  const list = await api(site.backendUrl, 'GET', '/api/v1/category/list', { query: { wd: title } });
  return list.body.category[0].id as number;
}

describe('with the backend in the gateway process', () => {
  let site: Site;
  let adminToken: string;

  beforeAll(async () => {
    site = await startSite({ webDist: FIXTURE_DIST, gateway: LONG, build: { converter: recordedConversions } });
    adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  }, 60_000);
  afterAll(async () => {
    await site?.close();
  });

  it('shows a category renamed through the backend on the next anonymous page, kept pages or not', async () => {
    const id = await newCategory(site, adminToken, '考研资料');
    expect(titlesOf(await home(site))).toContain('考研资料');
    // the second answer comes from the lane, in front of Fastify
    expect(titlesOf(await home(site))).toContain('考研资料');

    await renameCategory(site, adminToken, id, '考研真题');

    const titles = titlesOf(await home(site));
    expect(titles).toContain('考研真题');
    expect(titles).not.toContain('考研资料');
  });

  it('shows a document uploaded and converted through the backend on the home page at once', async () => {
    const before = findAnswer((await home(site)).routeData ?? [], latestDocumentsCall()) ?? [];
    const member = await uploader(site.backendUrl, adminToken);
    const created = await createDocument(site.backendUrl, member.token, textPdf(2), '新上传讲义.pdf');
    await waitForStatus(site.backendUrl, member.token, created.id, [2]);

    const after = findAnswer((await home(site)).routeData ?? [], latestDocumentsCall()) ?? [];
    expect(before.map((d) => d.id)).not.toContain(created.id);
    expect(after.map((d) => d.title)).toContain('新上传讲义');
  }, 60_000);
});

describe('with the backend over HTTP', () => {
  let site: Site;
  let adminToken: string;

  beforeAll(async () => {
    site = await startSite({ webDist: FIXTURE_DIST, gateway: LONG, backend: 'remote' });
    adminToken = await login(site.backendUrl, 'admin', site.adminPassword);
  }, 60_000);
  afterAll(async () => {
    await site?.close();
  });

  it('keeps the page until its time is up: a change not made through the gateway is not told to it', async () => {
    const id = await newCategory(site, adminToken, '公务员考试');
    expect(titlesOf(await home(site))).toContain('公务员考试');

    await renameCategory(site, adminToken, id, '事业单位考试');

    expect(titlesOf(await home(site))).toContain('公务员考试');
    // a write through the gateway is heard at once
    const res = await send(`${site.url}/api/v1/category`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie: `token=${adminToken}`, origin: site.url },
      body: JSON.stringify({ id, title: '事业单位招聘', enable: true }),
    });
    expect(res.status).toBe(200);
    expect(titlesOf(await home(site))).toContain('事业单位招聘');
  });
});
