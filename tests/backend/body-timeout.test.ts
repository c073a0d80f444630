import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { useBackend } from '../helpers/backend';
import { slowRequest } from '../helpers/slow-client';

// The backend on its own port (`npm run backend`): a request body that stalls gets a 408 after
// BODY_TIMEOUT_MS and its connection closes. A JSON call's body must come whole within the
// bound; an upload's may take longer while its chunks keep coming.

const TIMEOUT_MS = 1_500;
/** Long enough for the backend's answer, short enough for a hung request to fail the test. */
const WAIT_MS = 10_000;
const MESSAGE = '请求内容接收超时，请检查网络后重试';

const backend = useBackend({ env: { BODY_TIMEOUT_MS: String(TIMEOUT_MS) }, member: true });

const head = (path: string, type: string, length: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n${extra}\r\n`;

/** A small PNG (header and size) in a multipart body, cut in `parts` pieces. */
function avatarForm(parts: number): { type: string; pieces: Buffer[]; length: number } {
  const png = Buffer.alloc(4000);
  Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 8, 0, 0, 0, 8, 8, 2,
  ]).copy(png);
  const body = Buffer.concat([
    Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n',
    ),
    png,
    Buffer.from('\r\n--b--\r\n'),
  ]);
  const size = Math.ceil(body.length / parts);
  return {
    type: 'multipart/form-data; boundary=b',
    pieces: Array.from({ length: parts }, (_, i) => body.subarray(i * size, (i + 1) * size)),
    length: body.length,
  };
}

// Each test waits out the bound at least once and they share nothing but the backend: they run
// side by side, the file's time the longest one's (the stalled upload: its pieces and the bound).
describe.concurrent('a stalled request body', () => {
  it('answers a login sent with Content-Length 100 and 12 bytes with 408 and closes', async ({ expect }) => {
    const res = await slowRequest(
      backend.url,
      head('/api/v1/user/login', 'application/json', 100) + '{"username":',
      [],
      WAIT_MS,
    );
    expect(res).toMatchObject({ answered: true, status: 408, closed: true });
    expect(JSON.parse(res.body)).toEqual({ error: MESSAGE, code: 1, message: MESSAGE });
  });

  it('times an upload between its chunks: a slow one that keeps coming is stored, one that stops gets 408', async ({
    expect,
  }) => {
    const auth = `Authorization: Bearer ${backend.member.token}\r\nConnection: close\r\n`;
    const form = avatarForm(8);
    // A fifth of the bound apart: longer in all than the bound, never a pause as long.
    const every = TIMEOUT_MS / 5;
    // Both at once: the slow one's pieces come while the stalled one waits out the bound.
    const [slow, stalled] = await Promise.all([
      slowRequest(
        backend.url,
        head('/api/v1/upload/avatar', form.type, form.length, auth),
        form.pieces.map((data, i) => ({ afterMs: (i + 1) * every, data })),
        WAIT_MS,
      ),
      slowRequest(
        backend.url,
        head('/api/v1/upload/avatar', form.type, form.length, auth),
        form.pieces.slice(0, 5).map((data, i) => ({ afterMs: (i + 1) * every, data })),
        WAIT_MS,
      ),
    ]);
    expect(slow).toMatchObject({ answered: true, status: 200 });
    expect(JSON.parse(slow.body)).toMatchObject({ code: 200, data: { name: 'me.png' } });
    expect(stalled).toMatchObject({ answered: true, status: 408, closed: true });
    expect(JSON.parse(stalled.body)).toEqual({ code: 408, message: MESSAGE, error: MESSAGE });
    // The stalled upload's part file is gone, the stored one moved out (the other test's upload stalls before its file).
    expect(fs.readdirSync(path.join(backend.dataDir, 'tmp'))).toEqual([]);
  });

  it('answers an upload that stalls before its file with 408', async ({ expect }) => {
    const auth = `Authorization: Bearer ${backend.member.token}\r\n`;
    const res = await slowRequest(
      backend.url,
      head('/api/v1/upload/avatar', 'multipart/form-data; boundary=b', 10_000, auth) + '--b\r\n',
      [],
      WAIT_MS,
    );
    expect(res).toMatchObject({ answered: true, status: 408, closed: true });
  });
});
