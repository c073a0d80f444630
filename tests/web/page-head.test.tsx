import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from './render-app';

// The head of the page on screen, kept right by the SPA as it navigates (the gateway writes the
// same into the page it serves).

const head = () => ({
  title: document.title,
  robots: document.head.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
  canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
  jsonLd: [...document.head.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? '{}') as { '@type': string }),
  og: document.head.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? null,
});

describe('page head', { timeout: 20_000 }, () => {
  it('titles a category page by its category, with its canonical URL and breadcrumbs', async () => {
    renderApp('/library/7');
    await waitFor(() => expect(head().title).toBe('教育资料 - 测试文库'));
    expect(head()).toMatchObject({ robots: null, canonical: `${window.location.origin}/library/7`, og: '教育资料' });
    expect(head().jsonLd.map((d) => d['@type'])).toEqual(['BreadcrumbList']);
  });

  it('marks member and auth pages noindex, and drops what the previous page had', async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(head().title).toBe('测试文库 · 首页'));
    expect(head().jsonLd.map((d) => d['@type'])).toEqual(['WebSite']);
    await act(() => router.navigate('/auth/login'));
    await waitFor(() => expect(head().title).toBe('登录 - 测试文库'));
    expect(head()).toMatchObject({ robots: 'noindex, nofollow', canonical: null, og: null, jsonLd: [] });
  });
});
