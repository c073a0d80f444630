import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, settings } from './render-app';

// The footer of the public pages: its pages (the 隐私政策 among them) and the site's 备案 numbers,
// each a link to where it is looked up, as the rules for Chinese sites require.

const footerOf = async () => within(await screen.findByRole('contentinfo'));

describe('site footer', () => {
  it('links the ICP number to the MIIT and the 公安备案 number to its own page at the MPS', async () => {
    renderApp('/vip', {
      settings: {
        ...settings,
        system: { ...settings.system, icp: '京ICP备12345678号-1', sec_icp: '京公网安备 11010502030143号' },
      },
    });
    const footer = await footerOf();
    const icp = footer.getByRole('link', { name: '京ICP备12345678号-1' });
    expect(icp.getAttribute('href')).toBe('https://beian.miit.gov.cn/');
    const record = footer.getByRole('link', { name: '京公网安备 11010502030143号' });
    expect(record.getAttribute('href')).toBe('https://beian.mps.gov.cn/#/query/webSearch?code=11010502030143');
    expect(record.getAttribute('target')).toBe('_blank');
    expect(record.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('links a 公安备案 number without its digits to the MPS search, and shows no empty link for either', async () => {
    renderApp('/vip', { settings: { ...settings, system: { ...settings.system, sec_icp: '京公网安备（审核中）' } } });
    const footer = await footerOf();
    expect(footer.getByRole('link', { name: '京公网安备（审核中）' }).getAttribute('href')).toBe(
      'https://beian.mps.gov.cn/#/query/webSearch',
    );
    expect(footer.queryByRole('link', { name: /ICP/ })).toBeNull();
    for (const link of footer.getAllByRole('link')) expect(link.textContent).not.toBe('');
  });
});

describe('site footer links', () => {
  it('links the 隐私政策 beside the 文库协议, each article page at its one canonical address', async () => {
    const footer = { about: '/article/about', agreement: '/article/agreement', privacy: '/article/privacy' };
    renderApp('/vip', { settings: { ...settings, footer } });
    const links = within((await footerOf()).getByRole('navigation', { name: '页脚链接' })).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['关于我们', '/article/detail/about'],
      ['文库协议', '/article/detail/agreement'],
      ['隐私政策', '/article/detail/privacy'],
    ]);
  });
});

describe('sign-in pages footer', () => {
  it('spans the copyright from 版权起始年 as the site footer does', async () => {
    renderApp('/auth/login', {
      settings: { ...settings, system: { ...settings.system, copyright_start_year: '2019' } },
    });
    const footer = await footerOf();
    expect(footer.getByText(`© 2019-${new Date().getFullYear()} 测试文库`)).toBeTruthy();
  });
});
