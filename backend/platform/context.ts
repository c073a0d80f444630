import type { Database } from '../db';
import type { TokenService } from './auth/tokens';
import type { CaptchaStore } from './captcha';
import type { ConfigStore } from './config-store';
import type { Mailer } from './mailer';
import type { OAuthConfig } from './oauth-providers';

/** What every service module gets: the database and the app-wide helpers. */
export interface BackendContext {
  db: Database;
  settings: ConfigStore;
  tokens: TokenService;
  captcha: CaptchaStore;
  mailer: Mailer;
  /** DATA_DIR: the database, uploads and sitemaps live below it. */
  dataDir: string;
  /** Where the social sign-in providers are reached (OAUTH_* variables). */
  oauth: OAuthConfig;
  version: string;
  /** log2 of scrypt's N for new password hashes. */
  passwordCost: number;
}
