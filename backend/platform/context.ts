import type { Database } from '../db';
import type { TokenService } from './auth/tokens';
import type { BlobStore } from './blobs/blob-store';
import type { CaptchaStore } from './captcha';
import type { ConfigStore } from './config-store';
import type { JobQueue } from './jobs/job-queue';
import type { Mailer } from './mailer';
import type { OAuthConfig } from './oauth-providers';
import type { SmsSender } from './sms/sms-sender';

/** What every service module gets: the database and the app-wide helpers. */
export interface BackendContext {
  db: Database;
  settings: ConfigStore;
  tokens: TokenService;
  captcha: CaptchaStore;
  mailer: Mailer;
  /** SMS through the provider of the `sms` config (endpoints from SMS_* variables). */
  sms: SmsSender;
  /** Files (uploads, documents, pages) by key; the local disk under DATA_DIR here. */
  blobs: BlobStore;
  /** Durable background work; started once the routes are registered. */
  jobs: JobQueue;
  /** DATA_DIR: the database, uploads and sitemaps live below it. */
  dataDir: string;
  /** Where the social sign-in providers are reached (OAUTH_* variables). */
  oauth: OAuthConfig;
  version: string;
  /** log2 of scrypt's N for new password hashes. */
  passwordCost: number;
}
