// The upload screen (上传文档) on a phone, in Chromium against the real gateway and backend: a
// batch of many files, one over the size limit and one of a type the site does not take, one
// whose upload the network cuts (then 重试), one removed while it is on its way.
import { describe, expect, it } from 'vitest';
import { api, login, setConfig } from '../helpers/backend';
import { uploader } from '../helpers/document-api';
import { appTookOver, setTokenCookie, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();

describe('the upload screen at 390 px', () => {
  it('uploads many files at once, refuses the ones it cannot take, and mends a cut upload or drops a removed one', async () => {
    const admin = await login(site.backendUrl, 'admin', site.adminPassword);
    await api(site.backendUrl, 'POST', '/api/v1/category', { token: admin, body: { title: '上传分类' } });
    await setConfig(site.backendUrl, admin, { 'security.max_document_size': '1' });
    try {
      const member = await uploader(site.backendUrl, admin);
      const visit = await site.visit();
      const { page } = visit;
      await page.setViewportSize({ width: 390, height: 844 });
      await setTokenCookie(visit.context, site.url, member.token);
      // What reaches the upload route, by file name: cut.txt is cut until `networkBack`, hold.txt
      // waits until `release` (the member removes it meanwhile).
      const sent: string[] = [];
      let networkBack = false;
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/v1/upload/document', async (route) => {
        const body = route.request().postDataBuffer()?.toString('utf8') ?? '';
        const name = /filename="([^"]*)"/.exec(body)?.[1] ?? '';
        sent.push(name);
        if (name === 'cut.txt' && !networkBack) return route.abort('connectionreset');
        if (name === 'hold.txt') {
          await held;
          return route.continue().catch(() => undefined);
        }
        return route.continue();
      });
      await page.goto('/upload');
      await appTookOver(page);
      const names = Array.from({ length: 8 }, (_, i) => `第${i + 1}份很长很长的文件名称用来看换行的资料汇编.txt`);
      await page
        .getByTestId('document-files')
        .setInputFiles([
          ...names.map((name, i) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`第 ${i + 1} 份资料\n`) })),
          { name: 'cut.txt', mimeType: 'text/plain', buffer: Buffer.from('网络中断的文件\n') },
          { name: 'hold.txt', mimeType: 'text/plain', buffer: Buffer.from('移除的文件\n') },
          { name: '太大的文件.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(2 * 1024 * 1024, 0x20) },
          { name: '程序.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
        ]);
      const row = (name: string) => page.getByRole('listitem', { name });

      // The ones the site cannot take say why at once, and are never sent.
      await row('太大的文件.pdf').getByText('文件大小超出限制（最大 1 MB，超出 1 MB）').waitFor();
      await row('程序.exe').getByText('不支持的文档类型（.exe）').waitFor();

      // Removed on its way: its row goes, the keyboard on to the next row, and it never comes back.
      await row('hold.txt').getByText('上传中').waitFor();
      await page.getByRole('button', { name: '移除 hold.txt' }).click();
      await expect.poll(() => row('hold.txt').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('移除 太大的文件.pdf');
      release();

      // Cut by the network: 上传中断 with 重试, which sends it again, the keyboard kept on its row.
      await row('cut.txt').getByText('上传中断：与网站的连接断开了，请检查网络后重试').waitFor();
      for (const name of names) await row(name).getByText('已上传，待发布').waitFor();
      expect(await page.getByRole('button', { name: /^发布/ }).textContent()).toBe('发布（8）');
      networkBack = true;
      await page.getByRole('button', { name: '重试 cut.txt' }).click();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('移除 cut.txt');
      await row('cut.txt').getByText('已上传，待发布').waitFor();
      expect(await page.getByRole('button', { name: /^发布/ }).textContent()).toBe('发布（9）');
      expect(await row('hold.txt').count()).toBe(0);

      expect(sent.filter((name) => name === 'cut.txt')).toHaveLength(2);
      expect(sent.filter((name) => name === 'hold.txt')).toHaveLength(1);
      expect(sent).not.toContain('太大的文件.pdf');
      expect(sent).not.toContain('程序.exe');
      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await setConfig(site.backendUrl, admin, { 'security.max_document_size': '50' });
    }
  });
});
