// /admin/user/permission: every permission row, grouped by service.
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { permissionResource } from '../../features/permission/permission-resource';

export function PermissionPage() {
  return <ResourceScreen resource={permissionResource} />;
}
