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
          {system.icp && (
            <a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer">
              {system.icp}
            </a>
          )}
          {system.sec_icp && <span>{system.sec_icp}</span>}
        </p>
      </div>
    </footer>
  );
}
