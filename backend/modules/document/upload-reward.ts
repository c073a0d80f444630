import type { Database } from '../../db';
import { startOfServerDay } from '../../db/schema';
import type { ConfigSnapshot } from '../../platform/config-store';
import { documentsCreatedSince } from './store';

// The reward of publishing a document (CreateDocument), as MOREDOC pays it: `score.upload_document`
// credits for each of the member's first `score.upload_document_limit` documents of the day, paid
// when the document is created, before any review. One of the two at 0 (or below) pays nothing.

export interface UploadReward {
  /** Credits for each rewarded document, 0 when publishing pays nothing. */
  credits: number;
  /** Documents rewarded a day, 0 when publishing pays nothing. */
  perDay: number;
}

export function uploadReward(cfg: ConfigSnapshot): UploadReward {
  const credits = cfg.int('score', 'upload_document');
  const perDay = cfg.int('score', 'upload_document_limit');
  return credits > 0 && perDay > 0 ? { credits, perDay } : { credits: 0, perDay: 0 };
}

/**
 * How many more documents the member `userId` publishes with the reward on `at`'s day (the
 * database's now, so that every machine counts the same day): the day's `perDay` less the
 * documents they created that day (those in the recycle bin too; not the copies of a file of
 * theirs, which earn nothing: decision 115), 0 when publishing pays nothing.
 */
export async function rewardedUploadsLeft(
  db: Database,
  reward: UploadReward,
  userId: number,
  at: Date,
): Promise<number> {
  if (reward.perDay <= 0) return 0;
  return Math.max(0, reward.perDay - (await documentsCreatedSince(db, userId, startOfServerDay(at))));
}
