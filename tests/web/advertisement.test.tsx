import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Advertisement } from '../../shared/types/advertisement';
import { admin, renderApp, type Backend } from './render-app';

// The ad slots of the public pages and the admin's ad screen.

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
const live = { start_time: hoursFromNow(-1), end_time: hoursFromNow(1), enable: true };

function liveAds(ads: Advertisement[]): Backend {
  return { 'GET /api/v1/advertisement/position': { status: 200, body: { advertisement: ads } } };
}

const slot = (name: string) => document.querySelector(`[data-ad-slot="${name}"]`) as HTMLElement;

describe('ad slots', () => {
  it('show the live ads of their position, marked 广告, and leave the others empty', async () => {
    renderApp('/', {
      backend: liveAds([
        {
          id: 1,
          position: 'global_top',
          title: '会员促销',
          content: '<a href="https://ad.example/vip">开通会员立减</a>',
          ...live,
        },
        { id: 2, position: 'index_category_top', content: '<strong>分类上方的广告</strong>', ...live },
        { id: 3, position: 'index_category_top', content: '已过期', ...live, end_time: hoursFromNow(-0.5) },
      ]),
    });
    const top = await screen.findByRole('complementary', { name: '广告：会员促销' });
    expect(within(top).getByRole('link', { name: '开通会员立减' }).getAttribute('href')).toBe('https://ad.example/vip');
    expect(within(top).getByText('广告')).toBeTruthy();
    expect(slot('global_top').contains(top)).toBe(true);
    expect(slot('index_category_top').textContent).toBe('分类上方的广告广告');
    for (const empty of ['global_bottom', 'index_banner_bottom', 'index_category_bottom', 'index_link_top']) {
      expect(slot(empty).childElementCount).toBe(0);
    }
  });

  it('stay empty containers when there are no ads, or the backend has no ad service', async () => {
    renderApp('/');
    await waitFor(() => expect(slot('global_top')).toBeTruthy());
    expect(slot('global_top').childElementCount).toBe(0);
    expect(screen.queryByText('广告')).toBeNull();
  });
});

describe('/admin/advertisement', () => {
  const perm = (id: number, path: string) => ({ id, method: 'GRPC', path, title: path });
  const permissions = ['ListAdvertisement', 'CreateAdvertisement', 'UpdateAdvertisement', 'DeleteAdvertisement'].map(
    (rpc, i) => perm(i + 1, `/api.v1.AdvertisementAPI/${rpc}`),
  );

  it('lists the ads with their slot and whether they show now', async () => {
    renderApp('/admin/advertisement', {
      user: admin,
      permissions,
      backend: {
        'GET /api/v1/advertisement/list': {
          status: 200,
          body: {
            advertisement: [
              { id: 2, title: '首页横幅', position: 'index_banner_bottom', ...live },
              { id: 1, title: '旧活动', position: 'global_top', ...live, end_time: hoursFromNow(-2) },
            ],
            total: 2,
          },
        },
      },
    });
    const row = (await screen.findByText('首页横幅')).closest('tr') as HTMLElement;
    expect(within(row).getByText('首页 · 轮播图下方')).toBeTruthy();
    expect(within(row).getByText('投放中')).toBeTruthy();
    const old = screen.getByText('旧活动').closest('tr') as HTMLElement;
    expect(within(old).getByText('已结束')).toBeTruthy();
  });

  it('closes the open calendar on Escape, and the sheet on a second Escape', async () => {
    renderApp('/admin/advertisement', {
      user: admin,
      permissions,
      backend: {
        'GET /api/v1/advertisement/list': { status: 200, body: {} },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /新建广告/ }));
    const sheet = await screen.findByRole('dialog');
    const start = within(sheet).getByPlaceholderText('开始投放的时间');
    await userEvent.click(start);
    // A calendar shown: its pop-up bears -show (the closing animation that removes it never ends in happy-dom).
    const calendar = () => document.querySelector('.semi-popover-wrapper-show .semi-datepicker-month-grid');
    await waitFor(() => expect(calendar()).not.toBeNull());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(calendar()).toBeNull());
    expect(sheet.isConnected).toBe(true);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(sheet.isConnected).toBe(false));
  });

  it('checks the form before sending', async () => {
    const { fetchMock } = renderApp('/admin/advertisement', {
      user: admin,
      permissions,
      backend: {
        'GET /api/v1/advertisement/list': { status: 200, body: {} },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /新建广告/ }));
    const sheet = within(await screen.findByRole('dialog'));
    await userEvent.click(sheet.getByRole('button', { name: '创建' }));
    expect((await sheet.findAllByText('请选择广告位')).length).toBeGreaterThan(1); // placeholder and message
    expect(sheet.getByText('请输入广告内容')).toBeTruthy();
    expect(sheet.getByText('请选择开始时间')).toBeTruthy();
    expect(sheet.getByText('请选择结束时间')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'POST')).toBe(false);
  });
});
