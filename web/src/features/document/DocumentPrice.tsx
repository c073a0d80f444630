// What a document costs to download: free, or its price in the site's credits, marked
// "VIP 免费" when VIP members download without paying (vip settings).
import { DEFAULT_CREDIT_NAME } from '../../../../shared/constants';
import type { Settings } from '../../../../shared/types/config';
import './document.css';

export function creditName(settings: Settings): string {
  return settings.system?.credit_name || DEFAULT_CREDIT_NAME;
}

/** VIP members download priced documents for free (the vip config says so, and VIP is on sale). */
export function vipDownloadsFree(settings: Settings): boolean {
  return settings.vip?.enable === true && settings.vip.free_download === true;
}

export function DocumentPrice({ price, settings }: { price: number | undefined; settings: Settings }) {
  if (!price) return <span className="app-price app-price--free">免费</span>;
  return (
    <span className="app-price">
      {price} {creditName(settings)}
      {vipDownloadsFree(settings) && <span className="app-price__vip">VIP 免费</span>}
    </span>
  );
}
