// /admin/user/list: users with their groups (to pick from) and their status (from punishments, for
// an admin who may read them).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { creditName } from '../../features/document/DocumentPrice';
import { allGroupsQuery } from '../../features/group/api';
import { disabledUserIds } from '../../features/punishment/api';
import { usePermissionCheck, useSession } from '../../features/session/use-session';
import { useSettings } from '../../features/settings/use-settings';
import { userResource } from '../../features/user/user-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function UserListPage() {
  const { user } = useSession();
  const groups = useQuery(allGroupsQuery());
  const credits = creditName(useSettings());
  // Without it the punishments answer 403: the list shows no status rather than call them.
  const mayReadPunishments = usePermissionCheck()(grpcPermissionPath('PunishmentAPI', 'ListPunishment'));
  const resource = useMemo(
    () => userResource(groups.data ?? [], user?.id, mayReadPunishments ? disabledUserIds : undefined, credits),
    [groups.data, user?.id, credits, mayReadPunishments],
  );
  return <ResourceScreen resource={resource} />;
}
