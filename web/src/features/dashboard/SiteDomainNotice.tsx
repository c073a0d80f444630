// The dashboard's reminder while 网站域名 (`system.domain`) is empty: password-reset mails,
// sitemaps, sign-in and payment callbacks need the site's address, and the backend refuses them
// without it (docs/api.md). Shown to those who may fill it in.
import { Link } from 'react-router-dom';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { Banner } from '../../ui/semi-extra';
import { useSettings } from '../settings/use-settings';
import './dashboard.css';

export const UPDATE_CONFIG_PERMISSION = grpcPermissionPath('ConfigAPI', 'UpdateConfig');

export function SiteDomainNotice() {
  const settings = useSettings();
  if (settings.system?.domain?.trim()) return null;
  return (
    <Banner
      type="warning"
      fullMode={false}
      className="app-admin-dashboard__notice"
      title="尚未填写网站域名"
      description={
        <>
          找回密码邮件、站点地图、第三方登录与在线支付都需要本站的网址，填写前这些功能无法使用。
          <Link to="/admin/config/system">前往系统配置填写</Link>
        </>
      }
    />
  );
}
