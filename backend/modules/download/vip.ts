import type { BackendContext } from '../../platform/context';
import { vipBenefits } from '../vip/service';

// What a VIP membership changes for downloads, from the VIP module: free downloads of priced
// documents (`vip.free_download`) and the member's own daily limit (`vip.times_every_day`).

export interface DownloadBenefits {
  /** The member holds a VIP period now. */
  active: boolean;
  /** VIP members download priced documents without spending credits (`vip.free_download`). */
  freeDownload: boolean;
  /** Downloads a day in place of `download.times_every_day` (`vip.times_every_day`); 0 = the site's usual limit. */
  dailyDownloadQuota: number;
}

export async function downloadBenefits(app: BackendContext, userId: number): Promise<DownloadBenefits> {
  const { active, freeDownload, dailyDownloadQuota } = await vipBenefits(app.db, await app.settings.snapshot(), userId);
  return { active, freeDownload, dailyDownloadQuota };
}
