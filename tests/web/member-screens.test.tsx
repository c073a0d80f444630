// Member-area screens against a scripted backend: 我的文档's empty state and 我的下载's rows.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { member, renderApp, settings, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const noDocuments: Backend = { 'GET /api/v1/document/list': { status: 200, body: { total: 0, document: [] } } };

describe('/member/document', { timeout: 20_000 }, () => {
  it('offers 上传文档 on the empty list when the member may upload', async () => {
    renderApp('/member/document', {
      user: member,
      backend: { ...noDocuments, 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
    });
    const empty = within((await screen.findByText('暂无文档')).closest('.app-state') as HTMLElement);
    expect((await empty.findByRole('link', { name: '上传文档' })).getAttribute('href')).toBe('/upload');
  });

  it("says why instead when the member's groups may not upload", async () => {
    renderApp('/member/document', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/user/caniuploaddocument': {
          status: 403,
          body: { code: 7, message: '您所在的用户组暂不允许上传文档' },
        },
      },
    });
    const empty = within((await screen.findByText('暂无文档')).closest('.app-state') as HTMLElement);
    expect(await empty.findByText('暂时不能上传文档：您所在的用户组暂不允许上传文档')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '上传文档' })).toBeNull();
  });

  it('still offers 上传文档 when the right could not be checked (the upload screen asks again and says why)', async () => {
    renderApp('/member/document', {
      user: member,
      backend: {
        ...noDocuments,
        'GET /api/v1/user/caniuploaddocument': {
          status: 500,
          body: { code: 13, message: '服务器内部错误，请稍后再试' },
        },
      },
    });
    const empty = within((await screen.findByText('暂无文档')).closest('.app-state') as HTMLElement);
    expect((await empty.findByRole('link', { name: '上传文档' })).getAttribute('href')).toBe('/upload');
  });
});

describe('/member/download', { timeout: 20_000 }, () => {
  it("shows what a paid download cost, in the site's credit name", async () => {
    renderApp('/member/download', {
      user: member,
      settings: { ...settings, system: { ...settings.system, credit_name: '魔豆' } },
      backend: {
        'GET /api/v1/user/download': {
          status: 200,
          body: {
            total: 3,
            download: [
              { id: 3, document_id: 6, title: '年度报告', is_pay: true, price: 5 },
              { id: 2, document_id: 5, title: '旧的付费下载', is_pay: true },
              { id: 1, document_id: 4, title: '免费资料' },
            ],
          },
        },
      },
    });
    const row = (title: string) => within(screen.getByRole('link', { name: title }).closest('tr') as HTMLElement);
    expect(await screen.findByRole('link', { name: '年度报告' })).toBeTruthy();
    expect(row('年度报告').getByText('5 魔豆')).toBeTruthy();
    expect(row('旧的付费下载').getByText('付费（魔豆）')).toBeTruthy(); // paid before the price was kept
    expect(row('免费资料').getByText('免费')).toBeTruthy();
  });
});
