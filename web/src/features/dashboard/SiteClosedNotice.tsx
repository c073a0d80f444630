// The dashboard's word that the site is closed (安全配置's 是否关闭网站): visitors and members then
// see only the 闭站说明, while an admin browses every page as usual and would not notice it left
// on after the maintenance.
import { Link } from 'react-router-dom';
import { Notice } from '../../ui/Notice';
import { useSettings } from '../settings/use-settings';

export function SiteClosedNotice() {
  const { security } = useSettings();
  if (security?.is_close !== true) return null;
  return (
    <div className="app-admin-dashboard__closed">
      <Notice
        type="warning"
        description={
          <>
            网站已关闭：访客和普通会员只能看到闭站说明，只有管理员可以登录。
            <Link to="/admin/config/security">前往安全配置开放网站</Link>
          </>
        }
      />
    </div>
  );
}
