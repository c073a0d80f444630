// What a visitor agrees to by signing up, said before they do: the site's 文库协议 and 隐私政策
// (the footer's `agreement` and `privacy` pages, which the settings give only while they exist,
// at the address the footer links), in a new tab: the form beside them keeps what was typed.
import { Fragment } from 'react';
import { footerPageHref } from '../../../../shared/site-footer';
import { SiteLink } from '../../kit/routing/SiteLink';
import { useSettings } from '../settings/use-settings';

export function AgreementNote() {
  const { footer = {} } = useSettings();
  const documents = [
    { href: footer.agreement, title: '《文库协议》' },
    { href: footer.privacy, title: '《隐私政策》' },
  ].flatMap((d) => (d.href ? [{ href: footerPageHref(d.href), title: d.title }] : []));
  if (!documents.length) return null;
  return (
    <p className="app-auth-note app-auth-note--below">
      注册即表示您已阅读并同意
      {documents.map((d, i) => (
        <Fragment key={d.title}>
          {i > 0 && '和'}
          <SiteLink href={d.href} newTab>
            {d.title}
          </SiteLink>
        </Fragment>
      ))}
    </p>
  );
}
