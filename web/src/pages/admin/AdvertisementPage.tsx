// /admin/advertisement: the ads of the public pages' slots.
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { advertisementResource } from '../../features/advertisement/advertisement-resource';

export function AdvertisementPage() {
  return <ResourceScreen resource={advertisementResource} />;
}
