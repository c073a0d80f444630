// /admin/friendlink: the friend links in the home page footer.
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { friendlinkResource } from '../../features/friendlink/friendlink-resource';

export function FriendlinkPage() {
  return <ResourceScreen resource={friendlinkResource} />;
}
