import type { Database } from '../../db';
import type { ConfigStore } from '../../platform/config-store';
import { vipBenefits } from '../vip/service';

// What a VIP membership entitles a reader to, from the VIP module: with `vip.read_all_pages`
// on, a member whose VIP period runs reads every page past the free preview.

export interface ReaderBenefits {
  /** The member may read every page of every document, past the free preview. */
  readAllPages: boolean;
}

export async function readerBenefits(db: Database, settings: ConfigStore, userId: number): Promise<ReaderBenefits> {
  const { readAllPages } = await vipBenefits(db, await settings.snapshot(), userId);
  return { readAllPages };
}
