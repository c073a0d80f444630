// /admin/user/vip: members with VIP; grant, extend, revoke with a reason, history.
import { vipResource } from '../../features/vip/vip-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function UserVipPage() {
  return <ResourceScreen resource={vipResource} />;
}
