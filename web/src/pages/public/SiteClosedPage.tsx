import { SITE_CLOSED_TITLE } from '../../../../shared/page-head';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { settingsQuery } from '../../features/settings/api';
import { useLogout } from '../../features/session/session-actions';
import { useSession } from '../../features/session/use-session';
import { siteName } from '../../features/settings/use-settings';
import { closeStatement } from '../../features/settings/close-statement';
import { ScreenMessage } from '../../ui/ScreenMessage';
import { Button } from '../../ui/semi';
import './site-closed.css';

/**
 * Shown to a logged-in user who is no admin while `security.is_close` is on (the gateway
 * answers the page load with 503): the admin's statement, a way out, and the admin login.
 */
export function SiteClosedPage() {
  const settings = useQuery(settingsQuery()).data ?? {};
  const { user } = useSession();
  const logout = useLogout();
  const name = siteName(settings);
  return (
    <ScreenMessage
      className="app-site-closed"
      illustration="construction"
      title={SITE_CLOSED_TITLE}
      titleId="site-closed-title"
    >
      <div className="app-site-closed__statement" data-testid="close-statement">
        {closeStatement(settings).map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </div>
      {user?.username && <p className="app-site-closed__account">当前登录账号：{user.username}</p>}
      <div className="app-site-closed__actions">
        <Button type="primary" theme="solid" onClick={() => void logout()}>
          退出登录
        </Button>
        <Link to="/auth/login">管理员登录</Link>
      </div>
      <p className="app-site-closed__site">{name}</p>
    </ScreenMessage>
  );
}
