// Content for the benchmarks that load real pages: a category and converted documents in it,
// made through the embedded backend's own API as an admin (upload, create, wait for the
// converter), so that the pages carry what a live site's do.
import { repeatedPdf } from '../../tests/helpers/documents';

export interface PublishedContent {
  categoryId: number;
  documentIds: number[];
}

/** A JSON call to the backend (or the site), as an admin when `token` is given. */
export async function json(
  url: string,
  init: RequestInit & { token?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (typeof init.body === 'string') headers['content-type'] = 'application/json';
  const res = await fetch(url, { ...init, headers });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** The admin's token from the backend's login (or, from the site, the cookie it keeps it in). */
export async function adminToken(url: string, adminPassword: string): Promise<string> {
  const login = await fetch(`${url}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: adminPassword }),
  });
  const token =
    ((await login.json().catch(() => ({}))) as { token?: string }).token ??
    /^[^=]+=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error(`admin login for the benchmark content failed (${login.status})`);
  return token;
}

/** One category and `titles.length` documents of `pages` Chinese pages each, converted. */
export async function publishDocuments(
  backendUrl: string,
  adminPassword: string,
  titles: readonly string[],
  pages = 3,
): Promise<PublishedContent> {
  const token = await adminToken(backendUrl, adminPassword);
  await json(`${backendUrl}/api/v1/category`, {
    method: 'POST',
    token,
    body: JSON.stringify({ title: '阅读材料', type: 0, description: '城市、图书与阅读' }),
  });
  const categories = await json(`${backendUrl}/api/v1/category/list?type=0&wd=${encodeURIComponent('阅读材料')}`, {
    token,
  });
  const categoryId = (categories.body.category as { id: number }[])[0]!.id;
  const pdf = new Uint8Array(repeatedPdf(pages));
  for (const title of titles) {
    const form = new FormData();
    form.append('file', new Blob([pdf]), `${title}.pdf`);
    const upload = await fetch(`${backendUrl}/api/v1/upload/document`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    const uploaded = (await upload.json()) as { data?: { id: number } };
    if (!uploaded.data) throw new Error(`upload of a benchmark document: ${upload.status} ${JSON.stringify(uploaded)}`);
    const created = await json(`${backendUrl}/api/v1/document`, {
      method: 'POST',
      token,
      body: JSON.stringify({
        category_id: [categoryId],
        document: [
          {
            title,
            attachment_id: uploaded.data.id,
            price: 0,
            keywords: '图书馆,阅读',
            description: `${title}：一篇关于城市图书馆的文章`,
          },
        ],
      }),
    });
    if (created.status !== 200)
      throw new Error(`creating a benchmark document: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const list = await json(`${backendUrl}/api/v1/document/list?user_id=1&order=id%20asc&size=100`, { token });
  const documentIds = (list.body.document as { id: number; title: string }[])
    .filter((d) => titles.includes(d.title))
    .map((d) => d.id);
  const deadline = Date.now() + 180_000;
  for (const id of documentIds) {
    for (;;) {
      const doc = await json(`${backendUrl}/api/v1/document?id=${id}`, { token });
      if (doc.body.status === 2) break;
      if (doc.body.status === 3 || Date.now() > deadline)
        throw new Error(`a benchmark document did not convert: ${JSON.stringify(doc.body).slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return { categoryId, documentIds };
}
