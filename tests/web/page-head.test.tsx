import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { articleCall, liveAdsCall, relatedArticlesCall } from '../../shared/page-data';
import type { Article } from '../../shared/types/article';
import { renderApp } from './render-app';

// The head of the page on screen, kept right by the SPA as it navigates (the gateway writes the
// same into the page it serves).

const head = () => ({
  title: document.title,
  robots: document.head.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
  canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
  jsonLd: [...document.head.querySelectorAll('script[type="application/ld+json"]')].map(
    (s) => JSON.parse(s.textContent ?? '{}') as { '@type': string },
  ),
  og: document.head.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? null,
});

const upgrade: Article = {
  id: 5,
  identifier: 'upgrade',
  title: '站点升级公告',
  description: '周末升级',
  status: 1,
  content: '<p>本站将于周末升级。</p>',
  user: { id: 1, username: 'admin' },
  created_at: '2026-01-02T03:04:05Z',
};
const articleBackend = {
  'GET /api/v1/article': (url: URL) =>
    url.searchParams.get('identifier') === 'upgrade'
      ? { status: 200, body: upgrade }
      : { status: 404, body: { code: 5, message: '文章不存在' } },
  'GET /api/v1/article/related': { status: 404, body: { code: 5, message: '相关文章不存在' } },
  'GET /api/v1/comment/list': { status: 200, body: {} },
};

describe('page head', () => {
  it('titles a category page by its category, with its canonical URL and breadcrumbs', async () => {
    renderApp('/library/7');
    await waitFor(() => expect(head().title).toBe('教育资料 - 测试文库'));
    expect(head()).toMatchObject({ robots: null, canonical: `${window.location.origin}/library/7`, og: '教育资料' });
    expect(head().jsonLd.map((d) => d['@type'])).toEqual(['BreadcrumbList']);
  });

  it('titles a library page whose category the site does not show 分类不存在, noindex, as the gateway does', async () => {
    const categories = [
      { id: 7, title: '教育资料', type: 0, enable: true, parent_id: 0 },
      { id: 4, title: '行业新闻', type: 1, enable: true, parent_id: 0 },
      { id: 5, title: '停用的分类', type: 0, enable: false, parent_id: 0 },
    ];
    const { router } = renderApp('/library/4', { categories });
    expect(await screen.findByText('分类不存在')).toBeTruthy();
    await waitFor(() => expect(head().title).toBe('分类不存在 - 测试文库'));
    expect(head()).toMatchObject({ robots: 'noindex, nofollow', canonical: null, og: null, jsonLd: [] });
    for (const path of ['/library/7', '/library/999', '/library/7', '/library/5']) {
      await act(() => router.navigate(path));
      const title = path === '/library/7' ? '教育资料 - 测试文库' : '分类不存在 - 测试文库';
      await waitFor(() => expect(head().title, path).toBe(title));
      expect(head().robots, path).toBe(path === '/library/7' ? null : 'noindex, nofollow');
    }
    // Under /article a document category's id is no category: the article of that key, here none.
    await act(() => router.navigate('/article/7'));
    await waitFor(() => expect(head().title).toBe('文章不存在 - 测试文库'));
    expect(head().robots).toBe('noindex, nofollow');
  });

  it('marks member and auth pages noindex, and drops what the previous page had', async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(head().title).toBe('测试文库 · 首页'));
    expect(head().jsonLd.map((d) => d['@type'])).toEqual(['WebSite']);
    await act(() => router.navigate('/auth/login'));
    await waitFor(() => expect(head().title).toBe('登录 - 测试文库'));
    expect(head()).toMatchObject({ robots: 'noindex, nofollow', canonical: null, og: null, jsonLd: [] });
  });

  it('titles an article page after the article, with its canonical page and an Article, and a missing one 文章不存在', async () => {
    const { router } = renderApp('/article/detail/upgrade', { backend: articleBackend });
    await waitFor(() => expect(head().title).toBe('站点升级公告 - 测试文库'));
    expect(head()).toMatchObject({
      robots: null,
      canonical: `${window.location.origin}/article/detail/upgrade`,
      og: '站点升级公告',
    });
    expect(head().jsonLd.map((d) => d['@type'])).toEqual(['Article', 'BreadcrumbList']);
    await act(() => router.navigate('/article/detail/gone'));
    await waitFor(() => expect(head().title).toBe('文章不存在 - 测试文库'));
    expect(head()).toMatchObject({ robots: 'noindex, nofollow', canonical: null, jsonLd: [] });
  });

  it('shows an article the page carries, titled after it, without asking the API for it', async () => {
    const routeData = [
      { key: liveAdsCall().key, data: [] },
      { key: articleCall('upgrade').key, data: upgrade },
      { key: relatedArticlesCall('upgrade').key, data: [] },
    ];
    const { fetchMock } = renderApp('/article/detail/upgrade', { backend: articleBackend, routeData });
    expect(await screen.findByRole('heading', { level: 1, name: '站点升级公告' })).toBeTruthy();
    await waitFor(() => expect(head().title).toBe('站点升级公告 - 测试文库'));
    const asked = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost').pathname);
    expect(asked).not.toContain('/api/v1/article');
    expect(asked).not.toContain('/api/v1/article/related');
    expect(asked).not.toContain('/api/v1/advertisement/position');
  });
});
