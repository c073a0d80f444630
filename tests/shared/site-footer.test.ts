import { describe, expect, it } from 'vitest';
import { copyrightYears, footerLinks, footerPageHref, publicSecurityRecordLink } from '../../shared/site-footer';

describe('site footer rules', () => {
  it('spans the copyright from 版权起始年 to the year given, or shows that year alone', () => {
    expect(copyrightYears('2019', 2026)).toBe('2019-2026');
    expect(copyrightYears('2026', 2026)).toBe('2026');
    expect(copyrightYears('2030', 2026)).toBe('2026');
    expect(copyrightYears('', 2026)).toBe('2026');
    expect(copyrightYears(undefined, 2026)).toBe('2026');
    expect(copyrightYears('abc', 2026)).toBe('2026');
  });

  it('links a 公安备案 number to its own page at the MPS, or to the MPS search without digits', () => {
    expect(publicSecurityRecordLink('京公网安备 11010502030143号')).toBe(
      'https://beian.mps.gov.cn/#/query/webSearch?code=11010502030143',
    );
    expect(publicSecurityRecordLink('京公网安备（审核中）')).toBe('https://beian.mps.gov.cn/#/query/webSearch');
  });

  it('puts the 隐私政策 right after the 文库协议', () => {
    expect(
      footerLinks({ footer: { privacy: '/article/privacy', agreement: '/article/agreement', copyright: '/c' } }),
    ).toEqual([
      { key: 'agreement', label: '文库协议', href: '/article/detail/agreement' },
      { key: 'privacy', label: '隐私政策', href: '/article/detail/privacy' },
      { key: 'copyright', label: '免责声明', href: '/c' },
    ]);
  });

  it('keeps the footer links that have an address, in their order', () => {
    expect(footerLinks({ footer: { feedback: '/feedback', about: '/article/about', contact: '' } })).toEqual([
      { key: 'about', label: '关于我们', href: '/article/detail/about' },
      { key: 'feedback', label: '意见反馈', href: '/feedback' },
    ]);
    expect(footerLinks({})).toEqual([]);
  });

  it("links an article page at its canonical address, the one its page's head names, and any other address as saved", () => {
    expect(footerPageHref('/article/about')).toBe('/article/detail/about');
    expect(footerPageHref('/article/5/detail/about')).toBe('/article/detail/about');
    expect(footerPageHref('/article/detail/about')).toBe('/article/detail/about');
    // A category's list, the site's other pages and other sites are no article page.
    expect(footerPageHref('/article/5')).toBe('/article/5');
    expect(footerPageHref('/feedback')).toBe('/feedback');
    expect(footerPageHref('https://example.com/article/about')).toBe('https://example.com/article/about');
  });
});
