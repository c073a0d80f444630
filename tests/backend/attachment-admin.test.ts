import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerMember, useBackend, withDatabase } from '../helpers/backend';
import { uploadDocument } from '../helpers/document-api';
import { fixture } from '../helpers/documents';
import { pngHead } from '../helpers/images';

// AttachmentAPI for admins: the list with its filters, type names and uploaders, editing and
// banning a file, and deletion that removes the file once no other attachment uses it.

const backend = useBackend({ member: true });

let seed = 0;
/** A PNG header padded to 64 bytes, different per call unless `same` repeats a seed. */
const png = (same?: number): Buffer => pngHead(same ?? 1000 + ++seed);

async function upload(
  kind: 'avatar' | 'config' | 'banner' | 'category',
  file: Buffer,
  token: string,
  name = 'picture.png',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const res = await fetch(`${backend.url}/api/v1/upload/${kind}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as {
    code: number;
    message: string;
    data: { id: number; path: string; hash: string };
  };
  return { status: res.status, body };
}

const fileOf = (urlPath: string) => path.join(backend.dataDir, ...urlPath.split('/').filter(Boolean));

describe('ListAttachment and GetAttachment', () => {
  it('lists newest first with the type name and the uploader, filtered by type, user, enable, ext and wd', async () => {
    const member = await registerMember(backend.url);
    const avatar = await upload('avatar', png(), member.token, '我的头像.png');
    const banner = await upload('banner', png(), backend.adminToken, '春季活动.png');
    expect(avatar.status).toBe(200);

    const all = await backend.admin('GET', '/api/v1/attachment/list', { query: { page: 1, size: 2 } });
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    expect(all.body.attachment.map((a: { id: number }) => a.id)).toEqual([banner.body.data.id, avatar.body.data.id]);
    expect(all.body.attachment[0]).toMatchObject({
      type: 5,
      type_name: '轮播图',
      username: 'admin',
      name: '春季活动.png',
      enable: true,
      ext: '.png',
    });
    expect(all.body.attachment[1]).toMatchObject({
      type: 1,
      type_name: '头像',
      username: member.username,
      user_id: member.user.id,
    });

    const avatars = await backend.admin('GET', '/api/v1/attachment/list', {
      query: { type: 1, user_id: member.user.id },
    });
    expect(avatars.body).toMatchObject({ total: 1, attachment: [{ id: avatar.body.data.id }] });
    const byName = await backend.admin('GET', '/api/v1/attachment/list', { query: { wd: '春季' } });
    expect(byName.body.attachment.map((a: { id: number }) => a.id)).toEqual([banner.body.data.id]);
    const pdfs = await backend.admin('GET', '/api/v1/attachment/list', { query: { ext: 'pdf' } });
    expect(pdfs.body).toEqual({});
    const banned = await backend.admin('GET', '/api/v1/attachment/list', { query: { enable: false } });
    expect(banned.body.attachment ?? []).not.toContainEqual(expect.objectContaining({ id: banner.body.data.id }));

    const one = await backend.admin('GET', '/api/v1/attachment', { query: { id: avatar.body.data.id } });
    expect(one.body).toMatchObject({
      id: avatar.body.data.id,
      hash: avatar.body.data.hash,
      type_name: '头像',
      username: member.username,
    });
    const missing = await backend.admin('GET', '/api/v1/attachment', { query: { id: 987654 } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 5, message: '附件不存在' });
  });

  it('leaves out replaced avatars', async () => {
    const member = await registerMember(backend.url);
    const first = await upload('avatar', png(), member.token);
    const second = await upload('avatar', png(), member.token);
    const list = await backend.admin('GET', '/api/v1/attachment/list', { query: { user_id: member.user.id } });
    expect(list.body.attachment.map((a: { id: number }) => a.id)).toEqual([second.body.data.id]);
    expect((await backend.admin('GET', '/api/v1/attachment', { query: { id: first.body.data.id } })).status).toBe(404);
  });
});

describe('UpdateAttachment', () => {
  it('writes name, description and enable; a banned hash is refused at upload', async () => {
    const file = png();
    const uploaded = await upload('config', file, backend.adminToken);
    const id = uploaded.body.data.id;
    const res = await backend.admin('PUT', '/api/v1/attachment', {
      body: { id, name: '站点标志.png', description: '违规图片', enable: false, size: 1, hash: 'x' },
    });
    expect(res.status).toBe(200);
    const after = await backend.admin('GET', '/api/v1/attachment', { query: { id } });
    expect(after.body).toMatchObject({
      name: '站点标志.png',
      description: '违规图片',
      size: 64,
      hash: uploaded.body.data.hash,
    });
    expect(after.body.enable).toBeUndefined();

    const again = await upload('avatar', file, backend.member.token);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('文件已被标记为非法文件，禁止上传');
  });

  it('checks its input in Chinese', async () => {
    const uploaded = await upload('config', png(), backend.adminToken);
    const noName = await backend.admin('PUT', '/api/v1/attachment', { body: { id: uploaded.body.data.id, name: ' ' } });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe('附件名称不能为空');
    const noId = await backend.admin('PUT', '/api/v1/attachment', { body: { name: 'a.png' } });
    expect(noId.body.message).toBe('请选择附件（参数 id）');
    const missing = await backend.admin('PUT', '/api/v1/attachment', { body: { id: 987654, name: 'a.png' } });
    expect(missing.status).toBe(404);
  });
});

describe('DeleteAttachment', () => {
  it('removes the row and, once no other attachment uses the hash, the file', async () => {
    const file = png();
    const first = await upload('config', file, backend.adminToken);
    const second = await upload('banner', file, backend.adminToken);
    expect(second.body.data.path).toBe(first.body.data.path);
    const stored = fileOf(first.body.data.path);
    expect(crypto.createHash('md5').update(fs.readFileSync(stored)).digest('hex')).toBe(first.body.data.hash);

    expect((await backend.admin('DELETE', '/api/v1/attachment', { query: { id: first.body.data.id } })).status).toBe(
      200,
    );
    expect((await backend.admin('GET', '/api/v1/attachment', { query: { id: first.body.data.id } })).status).toBe(404);
    expect(fs.existsSync(stored)).toBe(true);

    expect((await backend.admin('DELETE', '/api/v1/attachment', { query: { id: second.body.data.id } })).status).toBe(
      200,
    );
    expect(fs.existsSync(stored)).toBe(false);
    expect((await fetch(backend.url + first.body.data.path)).status).toBe(404);
  });

  it('removes a document upload never made into a document, with its original file', async () => {
    const pdf = fs.readFileSync(fixture('chinese.pdf'));
    const uploaded = await uploadDocument(
      backend.url,
      backend.adminToken,
      Buffer.concat([pdf, Buffer.from('\n% orphan')]),
      '草稿.pdf',
    );
    expect(uploaded.status).toBe(200);
    const row = await backend.admin('GET', '/api/v1/attachment', { query: { id: uploaded.body.data.id } });
    expect(row.body).toMatchObject({ type: 2, type_name: '文档', name: '草稿.pdf' });
    const stored = fileOf(row.body.path);
    expect(fs.existsSync(stored)).toBe(true);
    expect((await backend.admin('DELETE', '/api/v1/attachment', { query: { id: uploaded.body.data.id } })).status).toBe(
      200,
    );
    expect(fs.existsSync(stored)).toBe(false);
  });

  it('refuses the upload of a document that still exists, and unknown ids', async () => {
    const uploaded = await upload('config', png(), backend.adminToken);
    const documentId = await withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      const doc = await db
        .insertInto('document')
        .values({ title: '年度报告', user_id: 1, uuid: `u${Date.now()}`, created_at: ts, updated_at: ts })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('attachment')
        .set({ type: 2, type_id: doc.id })
        .where('id', '=', uploaded.body.data.id)
        .execute();
      return doc.id;
    });
    const refused = await backend.admin('DELETE', '/api/v1/attachment', { query: { id: uploaded.body.data.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('附件“picture.png”属于文档《年度报告》，请删除文档（并清空回收站）来删除它');
    expect(fs.existsSync(fileOf(uploaded.body.data.path))).toBe(true);

    await withDatabase(backend.dataDir, (db) => db.deleteFrom('document').where('id', '=', documentId).execute());
    expect((await backend.admin('DELETE', '/api/v1/attachment', { query: { id: uploaded.body.data.id } })).status).toBe(
      200,
    );
    expect(fs.existsSync(fileOf(uploaded.body.data.path))).toBe(false);

    const unknown = await backend.admin('DELETE', '/api/v1/attachment', { query: { id: 987654 } });
    expect(unknown.status).toBe(404);
    const none = await backend.admin('DELETE', '/api/v1/attachment');
    expect(none.body.message).toBe('请选择要操作的附件（参数 id）');
  });
});
