// A link an admin configured (the footer's pages, the 文库协议 under registration): a path of the
// site opens in the SPA, any other address in a new tab. `newTab`: a path of the site too, for a
// link beside a form, read without leaving what was typed in it (back brings an empty form).
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export function SiteLink({ href, children, newTab = false }: { href: string; children: ReactNode; newTab?: boolean }) {
  if (!newTab && href.startsWith('/') && !href.startsWith('//')) return <Link to={href}>{children}</Link>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
