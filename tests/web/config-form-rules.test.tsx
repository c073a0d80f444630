// The config forms refuse, under the field and before sending, what PUT /api/v1/config refuses
// (shared/config-rules.ts), and still send what it takes.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Config } from '../../shared/types/config';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { configBackend, configPermissions as permissions, configPuts as puts } from './config-forms';
import { admin, renderApp } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const ROWS: Record<string, Config[]> = {
  system: [
    { id: 1, name: 'sitename', label: '网站名称', value: '魔豆文库', input_type: 'text', category: 'system' },
    { id: 2, name: 'copyright_start_year', label: '版权起始年', value: '2019', input_type: 'text', category: 'system' },
  ],
  email: [{ id: 11, name: 'port', label: 'SMTP 服务器端口', value: '465', input_type: 'number', category: 'email' }],
  converter: [
    {
      id: 21,
      name: 'max_preview_percent',
      label: '最大预览页数百分比',
      value: '100',
      input_type: 'number',
      category: 'converter',
    },
    { id: 22, name: 'timeout', label: '转换超时(分钟)', value: '30', input_type: 'number', category: 'converter' },
    {
      id: 23,
      name: 'enable_gzip',
      label: '是否启用GZIP压缩',
      value: 'true',
      input_type: 'switch',
      category: 'converter',
    },
    { id: 24, name: 'enable_svgo', label: '是否启用SVGO', value: 'false', input_type: 'switch', category: 'converter' },
    {
      id: 25,
      name: 'extension',
      label: '预览格式',
      value: 'webp',
      input_type: 'select',
      options: 'svg:SVG\nwebp:WEBP',
      category: 'converter',
    },
  ],
  captcha: [{ id: 31, name: 'length', label: '验证码长度', value: '5', input_type: 'number', category: 'captcha' }],
  footer: [
    {
      id: 41,
      name: 'about',
      label: '关于我们',
      value: '/article/detail/about',
      input_type: 'text',
      category: 'footer',
    },
  ],
  display: [
    { id: 51, name: 'contact_link', label: '联系我们跳转链接', value: '', input_type: 'text', category: 'display' },
  ],
};

const backend = () => configBackend(ROWS);

const linkProblem = '必须是 http:// 或 https:// 开头的网址，或以 / 开头的站内路径，例如 /article/detail/about';

describe('config form rules', () => {
  it.each([
    ['system', '网站名称', '', '请输入网站名称'],
    ['system', '版权起始年', 'abcd', `版权起始年必须是 1900 到 ${new Date().getFullYear()} 之间的四位年份，例如 2019`],
    ['email', 'SMTP 服务器端口', '70000', 'SMTP 服务器端口必须在 1 到 65535 之间'],
    ['converter', '最大预览页数百分比', '150', '最大预览页数百分比必须在 1 到 100 之间'],
    ['converter', '转换超时(分钟)', '0', '转换超时(分钟)必须在 1 到 1440 之间'],
    ['captcha', '验证码长度', '0', '验证码长度必须在 1 到 12 之间'],
    ['footer', '关于我们', 'javascript:alert(1)', `关于我们${linkProblem}`],
    ['display', '联系我们跳转链接', 'javascript:alert(1)', `联系我们跳转链接${linkProblem}`],
  ])('/admin/config/%s: %s = %j is refused under the field, nothing sent', async (category, label, typed, message) => {
    const { fetchMock } = renderApp(`/admin/config/${category}`, { user: admin, permissions, backend: backend() });
    const input = (await screen.findByLabelText(label)) as HTMLInputElement;
    await userEvent.clear(input);
    if (typed) await userEvent.type(input, typed);
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(message);
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
    expect(puts(fetchMock)).toHaveLength(0);
    expect(toasts.value.some((t) => t.title === '保存成功')).toBe(false);
  });

  it('leaves out the converter settings nothing reads, and sends only what it shows', async () => {
    const { fetchMock } = renderApp('/admin/config/converter', { user: admin, permissions, backend: backend() });
    await screen.findByLabelText('转换超时(分钟)');
    for (const label of ['是否启用GZIP压缩', '是否启用SVGO', '预览格式']) expect(screen.queryByText(label)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(1));
    const sent = JSON.parse(String(puts(fetchMock)[0]?.[1]?.body)) as { config: { name: string }[] };
    expect(sent.config.map((row) => row.name)).toEqual(['max_preview_percent', 'timeout']);
  });

  it('sends http(s) links and site paths', async () => {
    const { fetchMock } = renderApp('/admin/config/footer', { user: admin, permissions, backend: backend() });
    const input = (await screen.findByLabelText('关于我们')) as HTMLInputElement;
    await userEvent.clear(input);
    await userEvent.type(input, 'https://help.example.com/about');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '保存成功')).toBe(true));
    expect(JSON.parse(String(puts(fetchMock)[0]?.[1]?.body))).toEqual({
      config: [{ id: 41, name: 'about', category: 'footer', value: 'https://help.example.com/about' }],
    });
  });
});
