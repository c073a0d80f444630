import type { BackendConfig } from './config';
import type { Database } from './db';
import type { TokenService } from './auth/tokens';
import type { CaptchaStore } from './services/captcha';
import type { ConfigStore } from './services/config-store';
import type { Mailer } from './services/mailer';
import type { BlobStore } from './platform/blobs/blob-store';
import type { JobQueue } from './platform/jobs/job-queue';

/** What every service module gets: the database and the app-wide helpers. */
export interface BackendContext {
  config: BackendConfig;
  db: Database;
  settings: ConfigStore;
  tokens: TokenService;
  captcha: CaptchaStore;
  mailer: Mailer;
  /** Files (uploads, documents, pages) by key; the local disk under DATA_DIR here. */
  blobs: BlobStore;
  /** Durable background work; started once the routes are registered. */
  jobs: JobQueue;
  version: string;
  /** log2 of scrypt's N for new password hashes. */
  passwordCost: number;
}
