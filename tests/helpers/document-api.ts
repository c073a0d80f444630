import { setTimeout as sleep } from 'node:timers/promises';
import { api, registerMember, type BackendFixture, type Member } from './backend';
import { textPdf } from './documents';

// Documents through the HTTP API, as the upload screen does it: the file to
// `POST /api/v1/upload/document`, then `POST /api/v1/document`, then waiting for the converter.

/** Uploads one file; answers the HTTP status and the JSON body. */
export async function uploadDocument(url: string, token: string, file: Buffer, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const res = await fetch(`${url}/api/v1/upload/document`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

export interface CreatedDocument {
  id: number;
  uuid: string;
  hash: string;
  status: number;
}

/** Uploads and creates one document; returns it as the owner's list shows it. */
export async function createDocument(
  url: string,
  token: string,
  file: Buffer,
  name: string,
  fields: {
    title?: string;
    price?: number;
    category_id?: number[];
    keywords?: string;
    description?: string;
    language?: string;
  } = {},
): Promise<CreatedDocument> {
  const upload = await uploadDocument(url, token, file, name);
  if (upload.status !== 200)
    throw new Error(`upload of ${name} failed: ${upload.status} ${JSON.stringify(upload.body)}`);
  const title = fields.title ?? name.replace(/\.[^.]+$/, '');
  const created = await api(url, 'POST', '/api/v1/document', {
    token,
    body: {
      category_id: fields.category_id ?? [],
      document: [
        {
          title,
          attachment_id: upload.body.data.id,
          price: fields.price ?? 0,
          keywords: fields.keywords ?? '',
          description: fields.description ?? '',
          language: fields.language ?? '',
        },
      ],
    },
  });
  if (created.status !== 200) throw new Error(`create of ${name} failed: ${created.status} ${created.text}`);
  const me = await api(url, 'GET', '/api/v1/user', { token });
  const list = await api(url, 'GET', '/api/v1/document/list', {
    token,
    query: { user_id: me.body.id, size: 100, order: 'id desc' },
  });
  const doc = list.body.document?.find((d: { title: string }) => d.title === title);
  if (!doc) throw new Error(`document ${title} not in the owner's list`);
  return { id: doc.id, uuid: doc.uuid, hash: doc.attachment.hash, status: doc.status ?? 0 };
}

/** Polls GetDocument (as `token`) until the status is one of `statuses`; returns the document. */
export async function waitForStatus(
  url: string,
  token: string,
  id: number,
  statuses: number[],
  timeoutMs = 60_000,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(url, 'GET', '/api/v1/document', { token, query: { id } });
    if (res.status === 200 && statuses.includes(res.body.status ?? 0)) return res.body;
    if (Date.now() > deadline)
      throw new Error(`document ${id} still has status ${res.body.status ?? 0} (${res.text.slice(0, 300)})`);
    await sleep(100);
  }
}

/**
 * Waits until the conversion's job has filed document `id` in the search index with its text: until a
 * search for `word`, a word of its body, finds it. The job files it after the status it wrote committed,
 * which a status poll (waitForStatus) can see first; and a document is found by its title from its
 * creation (CreateDocument files it, status 0 is searchable), so a word of the title proves nothing.
 */
export async function waitForSearchable(url: string, word: string, id: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(url, 'GET', '/api/v1/document/search', { query: { wd: word } });
    const hit = (res.body.document ?? []).find((doc: { id: number }) => doc.id === id);
    if (hit && hit.title.toLowerCase().includes(word.toLowerCase()))
      throw new Error(`waitForSearchable: "${word}" is in the title of document ${id}; give a word of its body`);
    if (hit) return;
    if (Date.now() > deadline)
      throw new Error(`a search for ${word} does not find document ${id} (${res.text.slice(0, 300)})`);
    await sleep(50);
  }
}

/**
 * A member who may upload: in a group with `enable_upload` and, unless `review`, without
 * review (their documents start at status 0 and convert at once).
 */
export async function uploader(url: string, adminToken: string, opts: { review?: boolean } = {}): Promise<Member> {
  const member = await registerMember(url);
  const group = await api(url, 'POST', '/api/v1/group', {
    token: adminToken,
    body: { title: `上传者${member.user.id}`, enable_upload: true, enable_document_review: opts.review ?? false },
  });
  if (group.status !== 200) throw new Error(`group: ${group.status} ${group.text}`);
  const set = await api(url, 'PUT', '/api/v1/user', {
    token: adminToken,
    body: { id: member.user.id, group_id: [2, group.body.id] },
  });
  if (set.status !== 200) throw new Error(`set user: ${set.status} ${set.text}`);
  return member;
}

/** A member of a group that may not upload (a fresh site's members may), but may write articles and comment. */
export async function nonUploader(url: string, adminToken: string): Promise<Member> {
  const member = await registerMember(url);
  const group = await api(url, 'POST', '/api/v1/group', {
    token: adminToken,
    body: { title: `读者${member.user.id}`, enable_upload: false, enable_article: true, enable_comment: true },
  });
  if (group.status !== 200) throw new Error(`group: ${group.status} ${group.text}`);
  const set = await api(url, 'PUT', '/api/v1/user', {
    token: adminToken,
    body: { id: member.user.id, group_id: [group.body.id] },
  });
  if (set.status !== 200) throw new Error(`set user: ${set.status} ${set.text}`);
  return member;
}

/**
 * A converted document of five text pages priced 3 credits, two of them free to read (the site's
 * `converter.max_preview` set to 2), by an uploading member; and a member without rights to it.
 */
export async function pricedFivePages(
  backend: Pick<BackendFixture, 'url' | 'adminToken' | 'setConfig'>,
): Promise<{ author: Member; stranger: Member; doc: CreatedDocument }> {
  const author = await uploader(backend.url, backend.adminToken);
  const stranger = await registerMember(backend.url);
  await backend.setConfig({ 'converter.max_preview': '2' });
  const doc = await createDocument(backend.url, author.token, textPdf(5), '五页.pdf', { price: 3 });
  const converted = await waitForStatus(backend.url, author.token, doc.id, [2]);
  if (converted.pages !== 5 || converted.preview !== 2)
    throw new Error(`five pages, two free: got ${JSON.stringify(converted).slice(0, 200)}`);
  return { author, stranger, doc };
}
