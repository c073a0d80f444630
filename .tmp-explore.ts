import { readFileSync } from 'node:fs';
import { startSite } from './tests/helpers/site';
import { api, login } from './tests/helpers/backend';
import { createDocument, waitForStatus } from './tests/helpers/document-api';
import { repeatedPdf, fixture } from './tests/helpers/documents';
import { launchBrowser } from './tests/e2e/browser';

const site = await startSite({ env: { CONFIG_CONVERTER_MAX_PREVIEW: '2', CONFIG_SYSTEM_RECOMMEND_WORDS: '图书馆,麒麟,古籍' } });
console.log('site', site.url);
async function cookieLogin(username: string, password: string) {
  const res = await fetch(`${site.url}/api/v1/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  return /token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
}
const adminToken = await cookieLogin('admin', site.adminPassword);
const cat = await api(site.url, 'POST', '/api/v1/category', { token: adminToken, body: { title: '教育资料\n技术文档', type: 0, enable: true } });
const cats = await api(site.url, 'GET', '/api/v1/category/list', { token: adminToken });
console.log(JSON.stringify([cat.status, cat.text, cats.status, cats.text])); console.log(cats.body.category.map((c: any) => [c.id, c.title]));
const catId = cats.body.category[0].id;
const reg = await fetch(`${site.url}/api/v1/user/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'uploader1', password: 'member-password' }) });
const regBody = await reg.json() as any;
const upToken = /token=([^;]+)/.exec(reg.headers.get('set-cookie') ?? '')?.[1] ?? '';
const group = await api(site.url, 'POST', '/api/v1/group', { token: adminToken, body: { title: '上传者', enable_upload: true, enable_document_review: false } });
await api(site.url, 'PUT', '/api/v1/user', { token: adminToken, body: { id: regBody.user.id, group_id: [2, group.body.id] } });
const up = { token: upToken };
const d1 = await createDocument(site.url, up.token, readFileSync(fixture('chinese.pdf')), '城市图书馆.pdf', { category_id: [catId], price: 5 });
const d2 = await createDocument(site.url, up.token, repeatedPdf(20), '二十页文档.pdf', { category_id: [catId] });
await waitForStatus(site.url, up.token, d1.id, [2, 3], 120_000);
const done = await waitForStatus(site.url, up.token, d2.id, [2, 3], 120_000);
console.log('converted', done.status, done.pages, done.preview, done.width, done.height, done.preview_ext, done.enable_gzip);
const browser = await launchBrowser();
for (const [w, h, tag] of [[1280, 900, 'desktop'], [390, 844, 'mobile']] as const) {
  const ctx = await browser.newContext({ baseURL: site.url, locale: 'zh-CN', viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text()); });
  for (const [path, name] of [['/', 'home'], [`/library/${catId}`, 'library'], [`/library/${catId}/${d1.id}`, 'reader'], ['/search?wd=麒麟', 'search'], ['/search', 'search-empty']] as const) {
    await page.goto(path);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/explore/${tag}-${name}.png`, fullPage: true });
  }
  await ctx.close();
}
await browser.close();
await site.close();
