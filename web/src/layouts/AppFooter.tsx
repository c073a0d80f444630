import { ICP_LOOKUP, copyrightYears, footerLinks, publicSecurityRecordLink } from '../../../shared/site-footer';
import type { Settings } from '../../../shared/types/config';
import { siteName, useSettings } from '../features/settings/use-settings';
import { SiteLink } from '../kit/routing/SiteLink';
import { plainText } from '../ui/plain-text';

const CURRENT_YEAR = new Date().getFullYear();

function RecordLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * The floating bar's 联系我们 link and WeChat QR code (展示配置), which a phone does not show
 * (SiderActions): here, on phones only, so that they can be reached there too.
 */
function PhoneContact({ display }: { display: NonNullable<Settings['display']> }) {
  if (!display.contact_link && !display.wechat_qrcode) return null;
  return (
    <div className="app-footer__phone-contact">
      {display.contact_link && (
        <a href={display.contact_link} target="_blank" rel="noopener noreferrer">
          {display.contact_tip || '联系我们'}
        </a>
      )}
      {display.wechat_qrcode && (
        <figure>
          <img src={display.wechat_qrcode} alt="微信二维码" width={96} height={96} />
          {display.wechat_tip && <figcaption>{display.wechat_tip}</figcaption>}
        </figure>
      )}
    </div>
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
              <SiteLink key={link.key} href={link.href}>
                {link.label}
              </SiteLink>
            ))}
          </nav>
        )}
        <PhoneContact display={display} />
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
