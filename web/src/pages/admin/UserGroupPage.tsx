// /admin/user/group: roles with their member rights, and 权限 to grant them admin permissions.
import { useMemo, useState } from 'react';
import type { Group } from '../../../../shared/types/group';
import { GRANT_PERMISSIONS, groupResource } from '../../features/group/group-resource';
import { GroupPermissionSheet } from '../../features/group/GroupPermissionSheet';
import { usePermissionCheck } from '../../features/session/use-session';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function UserGroupPage() {
  const mayGrant = usePermissionCheck()(GRANT_PERMISSIONS);
  const [granting, setGranting] = useState<Group | null>(null);
  const resource = useMemo(() => groupResource(mayGrant ? setGranting : undefined), [mayGrant]);
  return (
    <>
      <ResourceScreen resource={resource} />
      {granting && <GroupPermissionSheet group={granting} onClose={() => setGranting(null)} />}
    </>
  );
}
