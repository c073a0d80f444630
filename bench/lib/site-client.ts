// A client of the whole site as the SPA uses it: the token cookie the gateway sets, same-origin
// requests, uploads as multipart. For the benchmarks that need a converted document.
import { setTimeout as sleep } from 'node:timers/promises';

export class SiteClient {
  constructor(
    readonly origin: string,
    private cookieHeader = '',
  ) {}

  /** The token cookie as a request header, once logged in. */
  get cookie(): string {
    return this.cookieHeader;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.origin}${path}`, {
      method,
      headers: {
        origin: this.origin,
        cookie: this.cookieHeader,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const cookie = res.headers.get('set-cookie');
    if (cookie) this.cookieHeader = cookie.split(';')[0]!;
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text || '{}') as T;
  }

  async login(username: string, password: string): Promise<void> {
    await this.call('POST', '/api/v1/user/login', { username, password });
  }

  async upload(file: Buffer, name: string): Promise<number> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), name);
    const res = await fetch(`${this.origin}/api/v1/upload/document`, {
      method: 'POST',
      body: form,
      headers: { origin: this.origin, cookie: this.cookieHeader },
    });
    const body = (await res.json()) as { data?: { id: number } };
    if (res.status !== 200 || !body.data) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
    return body.data.id;
  }

  /** Polls the document until `done` says so; a failed conversion (status 3) throws. */
  async waitForDocument(id: number, done: (doc: DocumentState) => boolean): Promise<DocumentState> {
    for (;;) {
      const doc = await this.call<DocumentState>('GET', `/api/v1/document?id=${id}`);
      if (doc.status === 3) throw new Error('the benchmark document failed to convert');
      if (done(doc)) return doc;
      await sleep(20);
    }
  }

  /** Uploads a PDF, creates its document (as the admin: no review) and waits for the conversion. */
  async convertedDocument(pdf: Buffer, title: string): Promise<ConvertedDocument> {
    const attachmentId = await this.upload(pdf, `${title}.pdf`);
    await this.call('POST', '/api/v1/document', { document: [{ title, attachment_id: attachmentId }] });
    const list = await this.call<{ document: { id: number; title: string; attachment?: { hash?: string } }[] }>(
      'GET',
      '/api/v1/document/list?limit=10',
    );
    const listed = list.document.find((doc) => doc.title === title);
    if (!listed?.attachment?.hash) throw new Error(`document ${title} is not in the list`);
    const converted = await this.waitForDocument(listed.id, (doc) => doc.status === 2);
    return { id: listed.id, hash: listed.attachment.hash, pages: converted.pages ?? 0 };
  }
}

export interface DocumentState {
  status?: number;
  pages?: number;
}

export interface ConvertedDocument {
  id: number;
  hash: string;
  pages: number;
}
