// /admin/banner: the carousels of the website, the mini program and the app.
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { bannerResource } from '../../features/banner/banner-resource';

export function BannerPage() {
  return <ResourceScreen resource={bannerResource} />;
}
