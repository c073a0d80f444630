// /admin/user/list: users with their groups (to pick from) and their status (from punishments).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { creditName } from '../../features/document/DocumentPrice';
import { allGroupsQuery } from '../../features/group/api';
import { disabledUserIds } from '../../features/punishment/api';
import { useSession } from '../../features/session/use-session';
import { useSettings } from '../../features/settings/use-settings';
import { userResource } from '../../features/user/user-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function UserListPage() {
  const { user } = useSession();
  const groups = useQuery(allGroupsQuery());
  const credits = creditName(useSettings());
  const resource = useMemo(
    () => userResource(groups.data ?? [], user?.id, disabledUserIds, credits),
    [groups.data, user?.id, credits],
  );
  return <ResourceScreen resource={resource} />;
}
