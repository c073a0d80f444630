// /admin/user/sms: every SMS sent (numbers masked), with filters, and the counters against the limits.
// The page opens with 查看用户列表 (shared/permissions.ts); the log and the counters each need their
// own permission, so an admin without one is told so instead of meeting a 403 under 加载失败.
import { grpcPermissionPath } from '../../../../shared/permissions';
import { usePermissionCheck } from '../../features/session/use-session';
import { SmsCounters } from '../../features/sms/SmsCounters';
import { smsLogResource } from '../../features/sms/sms-log-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

const LIST_LOG = grpcPermissionPath('UserAPI', 'ListSmsLog');
const GET_STATS = grpcPermissionPath('UserAPI', 'GetSmsStats');

export function SmsLogPage() {
  const holds = usePermissionCheck();
  const [mayList, mayCount] = [holds(LIST_LOG), holds(GET_STATS)];
  return (
    <>
      {mayList ? (
        <ResourceScreen resource={smsLogResource} />
      ) : (
        <>
          <h1 className="app-admin-page__title">{smsLogResource.title}</h1>
          <section className="app-panel">
            <p role="note">
              {mayCount
                ? '您没有“短信发送记录”权限，只能查看下方的发送统计。'
                : '您没有“短信发送记录”和“短信发送统计”权限，不能查看短信记录。'}
              如需查看，请联系管理员在“角色管理”中为您的角色授予。
            </p>
          </section>
        </>
      )}
      {mayCount && <SmsCounters />}
    </>
  );
}
