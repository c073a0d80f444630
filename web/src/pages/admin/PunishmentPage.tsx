// /admin/user/punishment: punishments of users; create, edit, end.
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { punishmentResource } from '../../features/punishment/punishment-resource';

export function PunishmentPage() {
  return <ResourceScreen resource={punishmentResource} />;
}
