import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';
import type { TokenService } from './auth/tokens';
import type { BlobStore } from './blobs/blob-store';
import type { BuildInfo } from './build-info';
import type { CaptchaStore } from './captcha';
import type { ConfigStore } from './config-store';
import type { ContentChanges } from './content-changes';
import type { DocumentConverter } from './convert/converter';
import type { JobQueue } from './jobs/job-queue';
import type { Mailer } from './mailer';
import type { OAuthConfig } from './oauth-providers';
import type { SearchCollection, SearchIndex } from './search/search-index';
import type { SmsSender } from './sms/sms-sender';
import type { WindowCounter } from './sign-in-limit';
import type { ViewsSeen } from './views-seen';

/** How documents are converted, beyond the engine's own settings (CONVERT_* variables). */
export interface ConversionSettings {
  /** documents converted at once by this process */
  jobs: number;
  /** the time limit of one document; null: the admin's `converter.timeout` minutes */
  timeoutMs: number | null;
  /** one MuPDF step (opening the document, drawing a page, its covers); then the document fails at once */
  pageTimeoutMs: number;
  /** documents with more pages fail */
  maxPages: number;
}

/** Where the payment providers are reached (PAY_* variables; docs/api.md §4). */
export interface PaymentEndpoints {
  /** PAY_ALIPAY_GATEWAY_URL; null: Alipay's own gateway, or its sandbox when `pay.sandbox` is on. */
  alipayGatewayUrl: string | null;
  /** PAY_WECHAT_API_URL, default https://api.mch.weixin.qq.com */
  wechatApiUrl: string;
  /** PAY_TIMEOUT_MS: limit of one call to a provider. */
  timeoutMs: number;
}

/**
 * Which image hosts a remote image (an OAuth avatar) may be copied from. Only a backend built in code gets other than
 * the defaults (BuildBackendOptions.remoteImages: a test trusting its loopback image server); no variable sets it.
 */
export interface RemoteImageTrust {
  /** Whether an address may be connected to; `isPublicAddress` unless given. */
  allowAddress?: (address: string) => boolean;
  /** Certificates trusted besides the system's (a test server's self-signed one). */
  ca?: string | Buffer;
}

/** What every service module gets: the database and the app-wide helpers. */
export interface BackendContext {
  db: Database;
  settings: ConfigStore;
  tokens: TokenService;
  /**
   * The key of download links while the admin set none of their own (`download.secret_key`); the same in every process.
   */
  downloadLinkSecret: string;
  /** The key of password-reset links while the admin set none of their own (`email.secret`); the same in every process. */
  resetLinkSecret: string;
  captcha: CaptchaStore;
  /** Counts per key in one-minute windows (the `rate_limit` table), for limits that hold across processes. */
  minuteCounts: WindowCounter;
  /** The views counted today, per address and document or article (the `view_seen` table): one a day each (decision 119). */
  viewsSeen: ViewsSeen;
  /** SEARCH_RECORD_LIMIT: searches recorded per minute and client address; 0 = all. */
  searchRecordLimit: number;
  /** CLIENT_IPV6_PREFIX: the prefix length an IPv6 client is counted by in every per-address limit (addressKey). */
  ipv6Prefix: number;
  mailer: Mailer;
  /** SMS through the provider of the `sms` config (endpoints from SMS_* variables). */
  sms: SmsSender;
  /** Files (uploads, documents, pages) by key: the local disk under DATA_DIR, or the S3 bucket of S3_BUCKET. */
  blobs: BlobStore;
  /** Durable background work; started once the routes are registered. */
  jobs: JobQueue;
  /** Public content that changed, for the modules that list it (sitemaps) without importing its module. */
  contentChanges: ContentChanges;
  /** Documents → pages, covers and text (worker threads; LibreOffice and calibre when installed). */
  converter: DocumentConverter;
  conversion: ConversionSettings;
  /** Full-text search, one index per collection (SQLite FTS5 here). */
  search: Record<SearchCollection, SearchIndex>;
  /** The app's logger, for work that outlives a request (jobs, index updates). */
  log: FastifyBaseLogger;
  /** DATA_DIR: the database, uploads and sitemaps live below it. */
  dataDir: string;
  /** Where the social sign-in providers are reached (OAUTH_* variables). */
  oauth: OAuthConfig;
  /** Where remote images are copied from: public addresses, the system's certificates (BuildBackendOptions). */
  remoteImages: RemoteImageTrust;
  payment: PaymentEndpoints;
  version: string;
  /** The program's build (git commit, build time), looked up on first use. */
  build: () => Promise<BuildInfo>;
  /** log2 of scrypt's N for new password hashes. */
  passwordCost: number;
}
