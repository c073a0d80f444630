// The colour fields of the admin forms (编辑角色 标识颜色, 新建导航 颜色): an empty colour shows
// as empty, not black, and only a colour every browser reads (#rgb, #rrggbb) is sent.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Permission } from '../../shared/types/permission';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { colorHex } from '../../web/src/kit/admin-resource/validation';
import { admin, renderApp, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const perm = (id: number, path: string, title: string): Permission => ({ id, method: 'GRPC', path, title });

const calls = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => init?.method === method && new URL(String(url), 'http://localhost').pathname === path,
  );

const COLOR_PROBLEM = '必须是 # 开头的 3 位或 6 位十六进制颜色，例如 #1677ff 或 #f60';

function swatchOf(sheet: ReturnType<typeof within>, label: string) {
  const picker = sheet.getByLabelText(`选择${label}`) as HTMLInputElement;
  return { picker, swatch: picker.closest('.app-color-input__swatch') as HTMLElement };
}

describe('colour fields', () => {
  it('read #rgb and #rrggbb only', () => {
    expect(colorHex(' #F60 ')).toBe('#ff6600');
    expect(colorHex('#1677FF')).toBe('#1677ff');
    for (const bad of ['', 'red', 'notacolor', '#12', '#12345', '#1234567', 'rgb(0,0,0)', '1677ff'])
      expect(colorHex(bad), bad).toBeUndefined();
  });

  it('编辑角色: an empty 标识颜色 shows as empty, `red` is refused, #f60 is sent', async () => {
    const backend: Backend = {
      'GET /api/v1/group/list': {
        status: 200,
        body: { group: [{ id: 3, title: '编辑', color: '', user_count: 0 }], total: 1 },
      },
      'PUT /api/v1/group': { status: 200, body: {} },
    };
    const permissions = [
      perm(21, '/api.v1.GroupAPI/ListGroup', '获取用户组列表'),
      perm(22, '/api.v1.GroupAPI/UpdateGroup', '更新用户组'),
    ];
    const { fetchMock } = renderApp('/admin/user/group', { user: admin, permissions, backend });
    await userEvent.click(await screen.findByRole('button', { name: '编辑“编辑”' }));
    const sheet = within((await screen.findByRole('dialog')) as HTMLElement);
    const input = sheet.getByLabelText('标识颜色') as HTMLInputElement;
    let { picker, swatch } = swatchOf(sheet, '标识颜色');
    expect(swatch.classList).toContain('app-color-input__swatch--empty');
    expect(swatch.style.background).toBe('');
    expect(picker.value).not.toBe('#000000');
    expect(input.placeholder).not.toMatch(/^#/);

    await userEvent.type(input, 'red');
    await userEvent.click(sheet.getByRole('button', { name: '保存' }));
    expect((await sheet.findByRole('alert')).textContent).toBe(`标识颜色${COLOR_PROBLEM}`);
    expect(calls(fetchMock, 'PUT', '/api/v1/group')).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, '#f60');
    ({ picker, swatch } = swatchOf(sheet, '标识颜色'));
    expect(swatch.classList).not.toContain('app-color-input__swatch--empty');
    expect(swatch.dataset.color).toBe('#ff6600');
    expect(picker.value).toBe('#ff6600');
    await userEvent.click(sheet.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls(fetchMock, 'PUT', '/api/v1/group')).toHaveLength(1));
    expect(JSON.parse(String(calls(fetchMock, 'PUT', '/api/v1/group')[0]?.[1]?.body))).toMatchObject({
      id: 3,
      color: '#f60',
    });
  });

  it('新建导航: 颜色 留空使用默认颜色 shows as empty; `notacolor` is refused', async () => {
    const backend: Backend = {
      'GET /api/v1/navigation/list': { status: 200, body: { navigation: [], total: 0 } },
      'POST /api/v1/navigation': { status: 200, body: { id: 9 } },
    };
    const permissions = [
      perm(41, '/api.v1.NavigationAPI/ListNavigation', '导航列表'),
      perm(42, '/api.v1.NavigationAPI/CreateNavigation', '新增导航'),
    ];
    const { fetchMock } = renderApp('/admin/navigation', { user: admin, permissions, backend });
    await userEvent.click(await screen.findByRole('button', { name: /新建导航/ }));
    const sheet = within((await screen.findByRole('dialog')) as HTMLElement);
    const { picker, swatch } = swatchOf(sheet, '颜色');
    expect(sheet.getByText('留空使用默认颜色')).toBeTruthy();
    expect(swatch.classList).toContain('app-color-input__swatch--empty');
    expect(picker.value).not.toBe('#000000');
    await userEvent.type(sheet.getByLabelText('名称'), '专题');
    await userEvent.type(sheet.getByLabelText('链接'), '/topic');
    await userEvent.type(sheet.getByLabelText('颜色'), 'notacolor');
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    expect((await sheet.findByRole('alert')).textContent).toBe(`颜色${COLOR_PROBLEM}`);
    expect(calls(fetchMock, 'POST', '/api/v1/navigation')).toHaveLength(0);
  });
});
