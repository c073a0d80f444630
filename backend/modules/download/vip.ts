import type { BackendContext } from '../../platform/context';

// Seam to the VIP module (issue 16, branch `vip`): its modules/vip/service.ts exports
// `vipBenefits(db, cfg, userId)` with these fields. Until it is in main nobody is a VIP, and
// this is the one place to wire it: free downloads for VIP members and their own daily limit.

export interface DownloadBenefits {
  /** The member holds a VIP period now. */
  active: boolean;
  /** VIP members download priced documents without spending credits (`vip.free_download`). */
  freeDownload: boolean;
  /** Downloads a day in place of `download.times_every_day` (`vip.times_every_day`); 0 = the site's usual limit. */
  dailyDownloadQuota: number;
}

export async function downloadBenefits(_app: BackendContext, _userId: number): Promise<DownloadBenefits> {
  return { active: false, freeDownload: false, dailyDownloadQuota: 0 };
}
