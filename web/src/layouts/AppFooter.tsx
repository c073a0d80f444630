import { Link } from 'react-router-dom';
import type { Settings } from '../../../shared/types/config';
import { siteName, useSettings } from '../features/settings/use-settings';
import { plainText } from '../ui/plain-text';

const CURRENT_YEAR = new Date().getFullYear();

const FOOTER_LINKS: readonly { key: keyof NonNullable<Settings['footer']>; label: string }[] = [
  { key: 'about', label: '关于我们' },
  { key: 'contact', label: '联系我们' },
  { key: 'agreement', label: '文库协议' },
  { key: 'copyright', label: '免责声明' },
  { key: 'feedback', label: '意见反馈' },
];

/** Where a 备案 number is looked up: the MIIT's for the ICP number, the MPS's for a 公安备案 number. */
const ICP_LOOKUP = 'https://beian.miit.gov.cn/';
const PUBLIC_SECURITY_LOOKUP = 'https://beian.mps.gov.cn/#/query/webSearch';

/** The MPS's page of a 公安备案 number (`京公网安备 11010502030143号`: its digits), else its search. */
function publicSecurityRecordLink(record: string): string {
  const code = /\d{6,}/.exec(record)?.[0];
  return code ? `${PUBLIC_SECURITY_LOOKUP}?code=${code}` : PUBLIC_SECURITY_LOOKUP;
}

function RecordLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function FooterLink({ href, label }: { href: string; label: string }) {
  if (href.startsWith('/') && !href.startsWith('//')) return <Link to={href}>{label}</Link>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  );
}

export function AppFooter() {
  const settings = useSettings();
  const { system = {}, footer = {}, display = {} } = settings;
  const links = FOOTER_LINKS.filter((link) => typeof footer[link.key] === 'string' && footer[link.key] !== '');
  const startYear = Number(system.copyright_start_year) || CURRENT_YEAR;
  const years = startYear < CURRENT_YEAR ? `${startYear}-${CURRENT_YEAR}` : `${CURRENT_YEAR}`;
  const statement = plainText(display.copyright_statement);

  return (
    <footer className="app-footer">
      <div className="app-container">
        {links.length > 0 && (
          <nav className="app-footer__links" aria-label="页脚链接">
            {links.map((link) => (
              <FooterLink key={link.key} href={footer[link.key] as string} label={link.label} />
            ))}
          </nav>
        )}
        {statement && <p className="app-footer__statement">{statement}</p>}
        <p className="app-footer__copyright">
          © {years} {siteName(settings)}
          {system.icp && <RecordLink href={ICP_LOOKUP}>{system.icp}</RecordLink>}
          {system.sec_icp && <RecordLink href={publicSecurityRecordLink(system.sec_icp)}>{system.sec_icp}</RecordLink>}
        </p>
      </div>
    </footer>
  );
}
