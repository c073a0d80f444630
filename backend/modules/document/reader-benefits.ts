import type { Database } from '../../db';

// What a VIP membership entitles a reader to. The VIP module (issue 16, branch `vip`) will
// export `vipBenefits(db, userId)` from modules/vip/service.ts; until it lands, nobody is a
// VIP and this seam is the one place to wire it.

export interface ReaderBenefits {
  /** The member may read every page of every document, past the free preview. */
  readAllPages: boolean;
}

export async function readerBenefits(_db: Database, _userId: number): Promise<ReaderBenefits> {
  return { readAllPages: false };
}
