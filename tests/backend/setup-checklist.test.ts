import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, useBackend } from '../helpers/backend';

// ConfigAPI.GetSetupChecklist (ours, docs/api.md): what a new site still lacks, for the admin
// dashboard. Each item is there on a new site (uploads for members once switched off) and
// goes once done. The site starts as a new one does: with a generated admin password, and
// here without LibreOffice and calibre.

const backend = useBackend({ env: { ADMIN_PASSWORD: '', LIBREOFFICE_PATH: 'off', CALIBRE_PATH: 'off' } });

const missing = async (): Promise<string[]> => {
  const res = await backend.admin('GET', '/api/v1/setup/checklist');
  expect(res.status, res.text).toBe(200);
  return res.body.missing ?? [];
};

/** Stand-ins for LibreOffice and calibre that answer `--version` as the real ones do. */
function fakeConverters(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-converters-'));
  const script = (file: string, line: string) =>
    fs.writeFileSync(path.join(dir, file), `#!/bin/sh\necho '${line}'\n`, { mode: 0o755 });
  script('soffice.bin', 'LibreOffice 7.4.7.2 40(Build:2)');
  script('ebook-convert', 'ebook-convert.exe (calibre 6.13.0)');
  return dir;
}
const converters = fakeConverters();
afterAll(() => fs.rmSync(converters, { recursive: true, force: true }));
const equipped = useBackend({
  env: { LIBREOFFICE_PATH: converters, CALIBRE_PATH: converters, CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com' },
});

describe('GetSetupChecklist', () => {
  it('lists what a new site lacks, and drops each item once it is done', async () => {
    expect(await missing()).toEqual([
      'category',
      'mail',
      'payment',
      'domain',
      'home_title',
      'admin_password',
      'libreoffice',
      'calibre',
    ]);

    await backend.admin('PUT', '/api/v1/group', {
      body: { id: 2, title: '普通用户', is_default: true, enable_upload: false },
    });
    expect(await missing()).toContain('upload');
    await backend.admin('PUT', '/api/v1/group', {
      body: { id: 2, title: '普通用户', is_default: true, enable_upload: true },
    });
    expect(await missing()).not.toContain('upload');

    expect((await backend.admin('POST', '/api/v1/category', { body: { title: '教育资料' } })).status).toBe(200);
    expect(await missing()).not.toContain('category');

    await backend.setConfig({
      'email.enable': 'true',
      'email.host': 'smtp.example.com',
      'email.username': 'noreply@example.com',
    });
    expect(await missing()).not.toContain('mail');

    await backend.setConfig({
      'pay.enable': 'true',
      'pay.provider': 'manual',
      'pay.manual_instructions': '转账至招商银行 6225 **** 0001，备注订单号',
    });
    expect(await missing()).not.toContain('payment');

    await backend.setConfig({ 'system.domain': 'https://docs.example.com' });
    expect(await missing()).not.toContain('domain');

    // The home page's title and description both the site's own: the seed's brand no longer shows.
    await backend.setConfig({ 'system.title': '书香文库 - 免费文档分享' });
    expect(await missing()).toContain('home_title');
    await backend.setConfig({ 'system.description': '书香文库收录各类学习资料。' });
    expect(await missing()).not.toContain('home_title');

    const changed = await backend.admin('PUT', '/api/v1/user/password', {
      body: { id: 1, old_password: backend.adminPassword, new_password: 'a-new-admin-password' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await missing()).toEqual(['libreoffice', 'calibre']);
  });

  it('does not ask for a new admin password that was given (ADMIN_PASSWORD), nor for converters that are installed', async () => {
    const res = await api(equipped.url, 'GET', '/api/v1/setup/checklist', { token: equipped.adminToken });
    expect(res.body.missing).toEqual(['category', 'mail', 'payment', 'home_title']);
  });

  it('is for holders of its permission', async () => {
    expect((await api(backend.url, 'GET', '/api/v1/setup/checklist')).status).toBe(401);
  });
});
