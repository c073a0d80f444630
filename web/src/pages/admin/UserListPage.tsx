// /admin/user/list: users with their groups (to pick from) and their status (from punishments).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { allGroupsQuery } from '../../features/group/api';
import { disabledUserIds } from '../../features/punishment/api';
import { useSession } from '../../features/session/use-session';
import { userResource } from '../../features/user/user-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function UserListPage() {
  const { user } = useSession();
  const groups = useQuery(allGroupsQuery());
  const resource = useMemo(() => userResource(groups.data ?? [], user?.id, disabledUserIds), [groups.data, user?.id]);
  return <ResourceScreen resource={resource} />;
}
