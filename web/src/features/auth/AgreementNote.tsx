// What a visitor agrees to by signing up, said before they do: the site's 文库协议 (the footer's
// `agreement` page), where the admin set one.
import { SiteLink } from '../../kit/routing/SiteLink';
import { useSettings } from '../settings/use-settings';

export function AgreementNote() {
  const { footer = {} } = useSettings();
  if (!footer.agreement) return null;
  return (
    <p className="app-auth-note app-auth-note--below">
      注册即表示您已阅读并同意<SiteLink href={footer.agreement}>《文库协议》</SiteLink>
    </p>
  );
}
