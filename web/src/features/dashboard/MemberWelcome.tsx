// What a logged-in user without any admin page sees at /admin/dashboard (docs/product.md lets everyone
// open it): a plain welcome and the ways back, no figures and no system information.
import { Link } from 'react-router-dom';
import { Panel } from '../../ui/Panel';
import './dashboard.css';

export function MemberWelcome({ username }: { username: string | undefined }) {
  return (
    <div className="app-admin-dashboard">
      <Panel heading="h1" titleId="member-welcome-title" title={`欢迎，${username ?? '用户'}`}>
        <p className="app-admin-dashboard__note">
          这里是网站的管理后台，管理员在这里管理文档、文章、用户和网站设置。您的账号暂未获得管理权限；如需开通，请联系网站管理员。
        </p>
        <div className="app-admin-dashboard__actions">
          <Link className="app-admin-dashboard__action app-admin-dashboard__action--primary" to="/">
            返回首页
          </Link>
          <Link className="app-admin-dashboard__action" to="/member">
            个人中心
          </Link>
        </div>
      </Panel>
    </div>
  );
}
