// /admin/navigation: the public header's navigation tree.
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { navigationResource } from '../../features/navigation/navigation-resource';

export function NavigationPage() {
  return <ResourceScreen resource={navigationResource} />;
}
