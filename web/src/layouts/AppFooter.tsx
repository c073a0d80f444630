import { Link } from 'react-router-dom';
import { ICP_LOOKUP, copyrightYears, footerLinks, publicSecurityRecordLink } from '../../../shared/site-footer';
import { siteName, useSettings } from '../features/settings/use-settings';
import { plainText } from '../ui/plain-text';

const CURRENT_YEAR = new Date().getFullYear();

function FooterLink({ href, label }: { href: string; label: string }) {
  if (href.startsWith('/') && !href.startsWith('//')) return <Link to={href}>{label}</Link>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}

function RecordLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

export function AppFooter() {
  const settings = useSettings();
  const { system = {}, display = {} } = settings;
  const links = footerLinks(settings);
  const statement = plainText(display.copyright_statement);

  return (
    <footer className="app-footer">
      <div className="app-container">
        {links.length > 0 && (
          <nav className="app-footer__links" aria-label="页脚链接">
            {links.map((link) => (
              <FooterLink key={link.key} href={link.href} label={link.label} />
            ))}
          </nav>
        )}
        {statement && <p className="app-footer__statement">{statement}</p>}
        <p className="app-footer__copyright">
          © {copyrightYears(system.copyright_start_year, CURRENT_YEAR)} {siteName(settings)}
          {system.icp && <RecordLink href={ICP_LOOKUP}>{system.icp}</RecordLink>}
          {system.sec_icp && <RecordLink href={publicSecurityRecordLink(system.sec_icp)}>{system.sec_icp}</RecordLink>}
        </p>
      </div>
    </footer>
  );
}
