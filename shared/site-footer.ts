// The footer of the public pages: its links (设置 → 底链配置), the copyright years and the
// site's 备案 numbers with the pages they are looked up at. The SPA shows it
// (web/src/layouts/AppFooter.tsx); the gateway writes the same for crawlers (gateway/page-html.ts).
import { articlePagePath } from './page-paths';
import { articleIdentifierOf } from './routes';
import type { Settings } from './types/config';

export type FooterKey = keyof NonNullable<Settings['footer']>;

export const FOOTER_LINKS: readonly { key: FooterKey; label: string }[] = [
  { key: 'about', label: '关于我们' },
  { key: 'contact', label: '联系我们' },
  { key: 'agreement', label: '文库协议' },
  { key: 'privacy', label: '隐私政策' },
  { key: 'copyright', label: '免责声明' },
  { key: 'feedback', label: '意见反馈' },
];

/** The footer's links that have an address, in their order. */
export function footerLinks(settings: Settings): { key: FooterKey; label: string; href: string }[] {
  const footer = settings.footer ?? {};
  return FOOTER_LINKS.flatMap((link) => {
    const href = footer[link.key];
    return typeof href === 'string' && href !== '' ? [{ ...link, href: footerPageHref(href) }] : [];
  });
}

/**
 * Where a footer address is linked: an article page (the `/article/about` the config keeps, which
 * MOREDOC's web client opens) at its canonical `/article/detail/about`, so one page has one
 * address; any other address as the owner saved it.
 */
export function footerPageHref(href: string): string {
  const identifier = articleIdentifierOf(href);
  return identifier === undefined ? href : articlePagePath({ identifier });
}

/** `2019-2026` from 版权起始年 to this year, or this year alone (no start year, or not before it). */
export function copyrightYears(startYear: string | undefined, currentYear: number): string {
  const start = Number(startYear);
  return Number.isInteger(start) && start > 0 && start < currentYear ? `${start}-${currentYear}` : `${currentYear}`;
}

/** Where an ICP number is looked up (MIIT). */
export const ICP_LOOKUP = 'https://beian.miit.gov.cn/';

const PUBLIC_SECURITY_LOOKUP = 'https://beian.mps.gov.cn/#/query/webSearch';

/** The MPS's page of a 公安备案 number (`京公网安备 11010502030143号`: its digits), else its search. */
export function publicSecurityRecordLink(record: string): string {
  const code = /\d{6,}/.exec(record)?.[0];
  return code ? `${PUBLIC_SECURITY_LOOKUP}?code=${code}` : PUBLIC_SECURITY_LOOKUP;
}
