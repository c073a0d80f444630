import type { Generated } from 'kysely';
import type { DownloadReason } from '../../shared/messages/download';

// Row types of the tables (see migrations/), the same on SQLite and PostgreSQL. Booleans are
// 0/1 integers and timestamps ISO 8601 strings; the wire encoder turns them into JSON booleans
// / RFC 3339.

type Id = Generated<number>;
type Flag = number;
type Timestamp = string;

export interface UserTable {
  id: Id;
  username: string;
  password: string;
  mobile: Generated<string>;
  email: Generated<string>;
  address: Generated<string>;
  signature: Generated<string>;
  last_login_ip: Generated<string>;
  register_ip: Generated<string>;
  doc_count: Generated<number>;
  follow_count: Generated<number>;
  fans_count: Generated<number>;
  favorite_count: Generated<number>;
  comment_count: Generated<number>;
  avatar: Generated<string>;
  identity: Generated<string>;
  realname: Generated<string>;
  credit_count: Generated<number>;
  article_count: Generated<number>;
  remark: Generated<string>;
  login_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** ms since the epoch of the last password change: login tokens issued before it are refused (migration 030) */
  sessions_from: Generated<number | null>;
  /** the session (token UUID) that changed its own password, which stays */
  session_kept: Generated<string | null>;
}

export interface GroupTable {
  id: Id;
  title: string;
  color: Generated<string>;
  is_default: Generated<Flag>;
  is_display: Generated<Flag>;
  description: Generated<string>;
  user_count: Generated<number>;
  sort: Generated<number>;
  enable_upload: Generated<Flag>;
  enable_document_review: Generated<Flag>;
  enable_comment: Generated<Flag>;
  enable_comment_approval: Generated<Flag>;
  enable_article: Generated<Flag>;
  enable_article_approval: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserGroupTable {
  id: Id;
  user_id: number;
  group_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PermissionTable {
  id: Id;
  method: string;
  path: string;
  title: Generated<string>;
  description: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GroupPermissionTable {
  id: Id;
  group_id: number;
  permission_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LogoutTable {
  id: Id;
  user_id: number;
  uuid: string;
  expired_at: Timestamp;
  created_at: Timestamp;
}

export interface ConfigTable {
  id: Id;
  category: string;
  name: string;
  label: string;
  value: string;
  placeholder: string;
  input_type: string;
  sort: number;
  options: string;
  col_num: number;
  is_secret: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NavigationTable {
  id: Id;
  title: string;
  href: string;
  target: string;
  color: string;
  sort: number;
  enable: Flag;
  parent_id: number;
  description: string;
  fixed: Generated<Flag>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CategoryTable {
  id: Id;
  parent_id: number;
  title: string;
  doc_count: Generated<number>;
  sort: number;
  enable: Flag;
  cover: string;
  icon: string;
  description: string;
  show_description: Flag;
  type: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FriendlinkTable {
  id: Id;
  title: string;
  link: string;
  description: string;
  sort: number;
  enable: Flag;
  created_at: Timestamp | null;
  updated_at: Timestamp | null;
}

export interface BannerTable {
  id: Id;
  title: string;
  path: string;
  sort: number;
  enable: Flag;
  type: number;
  url: string;
  description: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LanguageTable {
  id: Id;
  language: string;
  enable: Flag;
  code: string;
  total: Generated<number>;
  sort: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PunishmentTable {
  id: Id;
  user_id: number;
  type: number;
  enable: Flag;
  end_time: Timestamp | null;
  operators: string;
  remark: string;
  reason: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttachmentTable {
  id: Id;
  hash: string;
  user_id: number;
  type_id: number;
  type: number;
  enable: Generated<Flag>;
  path: string;
  name: string;
  size: number;
  width: number;
  height: number;
  ext: string;
  ip: string;
  description: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface DynamicTable {
  id: Id;
  user_id: number;
  content: string;
  type: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SignTable {
  id: Id;
  user_id: number;
  sign_at: number;
  ip: string;
  award: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EmailCodeTable {
  id: Id;
  email: string;
  code: string;
  type: number;
  is_used: Generated<Flag>;
  success: Generated<Flag>;
  error: Generated<string>;
  ip: string;
  /** wrong tries of a register code (migration 032) */
  attempts: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DocumentTable {
  id: Id;
  title: string;
  keywords: Generated<string>;
  description: Generated<string>;
  user_id: number;
  width: Generated<number>;
  height: Generated<number>;
  preview: Generated<number>;
  pages: Generated<number>;
  uuid: string;
  download_count: Generated<number>;
  view_count: Generated<number>;
  favorite_count: Generated<number>;
  comment_count: Generated<number>;
  score: Generated<number>;
  score_count: Generated<number>;
  price: Generated<number>;
  size: Generated<number>;
  ext: Generated<string>;
  status: Generated<number>;
  enable_gzip: Generated<Flag>;
  convert_error: Generated<string>;
  preview_ext: Generated<string>;
  language: Generated<string>;
  deleted_user_id: Generated<number>;
  recommend_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  hash: Generated<string>;
  attachment_id: Generated<number>;
  /** 1: made of a file its uploader had a document of already: no upload reward, not among the day's (migration 045). */
  own_copy: Generated<Flag>;
}

/** `content`: `pages` page texts separated by form feeds; `pages` 0: one text not split into pages (migration 015). */
export interface DocumentContentTable {
  document_id: number;
  content: string;
  pages: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Views of a document on one day (`day`: YYYY-MM-DD, UTC). */
export interface DocumentViewDayTable {
  document_id: number;
  day: string;
  views: Generated<number>;
}
/** The 热门文档 ranking (`place` from 1), recomputed by the `document.hot` job. */
export interface DocumentHotTable {
  document_id: number;
  place: number;
  score: number;
  computed_at: Timestamp;
}
export interface ReadingPositionTable {
  user_id: number;
  document_id: number;
  page: number;
  updated_at: Timestamp;
}
export interface DocumentScoreTable {
  id: Id;
  document_id: number;
  user_id: number;
  score: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `related_ids` is a JSON array of document ids. */
export interface DocumentRelatedTable {
  document_id: number;
  related_ids: string;
  expires_at: Timestamp;
}

export interface DocumentCategoryTable {
  id: Id;
  document_id: number;
  category_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * `price`: the document's price at the download, credits moved only when `is_pay` (before migration 037 only a paid
 * download's, 0 before 014); `reason`: why it cost that (a DownloadReason; NULL when migration 037 could not tell).
 */
export interface DownloadTable {
  id: Id;
  user_id: number;
  document_id: number;
  ip: string;
  is_pay: Flag;
  price: Generated<number>;
  reason: DownloadReason | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ArticleTable {
  id: Id;
  identifier: string;
  title: string;
  keywords: Generated<string>;
  description: Generated<string>;
  content: Generated<string>;
  user_id: number;
  view_count: Generated<number>;
  favorite_count: Generated<number>;
  comment_count: Generated<number>;
  status: Generated<number>;
  reject_reason: Generated<string>;
  recommend_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface ArticleCategoryTable {
  id: Id;
  article_id: number;
  category_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * `reply_told`: 1 once the member a reply answers was told it is visible (migration 039, decision 077);
 * `review_told`: the review status (1 approved, 2 rejected) the author last heard of, 0 none.
 */
export interface CommentTable {
  id: Id;
  parent_id: number;
  content: string;
  document_id: number;
  type: number;
  status: number;
  comment_count: Generated<number>;
  user_id: number;
  ip: string;
  reply_told: Generated<number>;
  review_told: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `type` 0 document, 1 article (ours); `description` the reporter's words, `remark` the admin's note. */
export interface ReportTable {
  id: Id;
  document_id: number;
  user_id: number;
  reason: number;
  status: Flag;
  document_title: string;
  remark: string;
  username: string;
  type: Generated<number>;
  description: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** FeedbackAPI (ours): `user_id` 0 for visitors; `status` 0 new, 1 handled. */
export interface FeedbackTable {
  id: Id;
  user_id: number;
  content: string;
  contact: Generated<string>;
  image: Generated<string>;
  page: Generated<string>;
  status: Generated<number>;
  reply: Generated<string>;
  ip: Generated<string>;
  handled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OAuthBindingTable {
  id: Id;
  provider: string;
  openid: string;
  unionid: Generated<string>;
  user_id: number;
  /** The provider's avatar address the member's copy was made from (migration 043); '' when none was. */
  avatar_source: Generated<string>;
  /** That copy's `/uploads/…` path: while it is the member's avatar, they have not set their own since. */
  avatar: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OAuthStateTable {
  state: string;
  provider: string;
  redirect_uri: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** A code sent by SMS: `code_hash` is `<salt>$<sha256 hex>`, never the code itself. */
export interface SmsCodeTable {
  id: Id;
  mobile: string;
  purpose: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

/** One SMS sent (or tried): status 0 sending, 1 sent, 2 failed; `content` only for the log-only provider. */
export interface SmsLogTable {
  id: Id;
  mobile: string;
  purpose: string;
  provider: string;
  status: Generated<number>;
  error: Generated<string>;
  biz_id: Generated<string>;
  content: Generated<string>;
  ip: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** payload and progress are JSON text; lease_* are set while a process runs the job. */
export interface AdvertisementTable {
  id: Id;
  user_id: number;
  position: string;
  title: string;
  content: string;
  remark: string;
  enable: Flag;
  start_time: Timestamp | null;
  end_time: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JobTable {
  id: Id;
  kind: string;
  payload: string;
  state: Generated<JobState>;
  attempts: Generated<number>;
  max_attempts: number;
  run_after: Timestamp;
  lease_owner: string | null;
  lease_expires_at: Timestamp | null;
  last_error: Generated<string>;
  progress: string | null;
  dedupe_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
  /** 1: asked for again while running (EnqueueOptions.again): queued again when the attempt ends well */
  rerun: Generated<number>;
  /** Whose job it is (EnqueueOptions.fairKey): claims take keys with fewer jobs running first */
  fair_key: string | null;
}

export interface FavoriteTable {
  id: Id;
  user_id: number;
  document_id: number;
  type: number;
  owner_id: number;
  award: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SearchRecordTable {
  id: Id;
  user_id: number;
  ip: string;
  total: number;
  page: number;
  user_agent: string;
  keywords: string;
  type: number;
  spend_time: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserVipTable {
  user_id: number;
  plan_code: string;
  plan_title: string;
  start_at: Timestamp;
  end_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VipLogTable {
  id: Id;
  user_id: number;
  action: number;
  days: number;
  order_id: number;
  operator_id: number;
  reason: string;
  end_before: Timestamp | null;
  end_after: Timestamp;
  created_at: Timestamp;
}

/** status: 0 pending, 1 paid, 2 closed, 3 refunded; amounts in fen. */
export interface OrdersTable {
  id: Id;
  order_no: string;
  buyer_id: number;
  buyer_name: string;
  plan_code: string;
  plan_title: string;
  days: number;
  amount: number;
  status: Generated<number>;
  provider: Generated<string>;
  trade_no: Generated<string>;
  paid_amount: Generated<number>;
  close_reason: Generated<string>;
  late_paid: Generated<Flag>;
  remark: Generated<string>;
  vip_start_at: Timestamp | null;
  vip_end_at: Timestamp | null;
  expires_at: Timestamp;
  paid_at: Timestamp | null;
  closed_at: Timestamp | null;
  refunded_at: Timestamp | null;
  checked_at: Timestamp | null;
  ip: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type NotificationOutcome = 'paid' | 'repeated' | 'late' | 'ignored' | 'refused';

export interface PaymentNotificationTable {
  id: Id;
  provider: string;
  order_no: string;
  order_id: number;
  trade_no: string;
  amount: number;
  outcome: NotificationOutcome;
  reason: string;
  raw: string;
  ip: string;
  /** 0: refused before it reached the order module (signature, ids, format); only the newest are kept */
  verified: Generated<number>;
  created_at: Timestamp;
}

/** A fixed window of a limit counted across processes: the sign-in limit, the search records (platform/sign-in-limit.ts). */
export interface RateLimitTable {
  key: string;
  window_start: Timestamp;
  hits: number;
}

/** A view counted on `day` (the server's day of the database's clock: databaseServerDay) for `key` (kind, id, addressKey): platform/views-seen.ts. */
export interface ViewSeenTable {
  id: Id;
  day: string;
  key: string;
}

export interface CaptchaTable {
  id: string;
  answer: string;
  attempts: number;
  expires_at: Timestamp;
}

export interface SecretTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface ChangeCounterTable {
  name: string;
  value: number;
}

/** The generated admin password's hash, while it may still be the account's (migration 021). */
export interface InitialPasswordTable {
  user_id: number;
  password: string;
  created_at: Timestamp;
}

/**
 * type: shared/types/message.ts MessageType; target_type 0 document, 1 article (migration 023); comment_id the
 * comment a message about one names (migration 040), else 0.
 */
export interface MessageTable {
  id: Id;
  user_id: number;
  type: number;
  title: string;
  content: Generated<string>;
  target_type: Generated<number>;
  target_id: Generated<number>;
  target_key: Generated<string>;
  comment_id: Generated<number>;
  read_at: Timestamp | null;
  created_at: Timestamp;
}

export interface DB {
  user: UserTable;
  group: GroupTable;
  user_group: UserGroupTable;
  permission: PermissionTable;
  group_permission: GroupPermissionTable;
  logout: LogoutTable;
  config: ConfigTable;
  navigation: NavigationTable;
  category: CategoryTable;
  friendlink: FriendlinkTable;
  banner: BannerTable;
  language: LanguageTable;
  punishment: PunishmentTable;
  attachment: AttachmentTable;
  dynamic: DynamicTable;
  sign: SignTable;
  email_code: EmailCodeTable;
  document: DocumentTable;
  document_category: DocumentCategoryTable;
  document_content: DocumentContentTable;
  document_score: DocumentScoreTable;
  reading_position: ReadingPositionTable;
  document_view_day: DocumentViewDayTable;
  document_hot: DocumentHotTable;
  document_related: DocumentRelatedTable;
  download: DownloadTable;
  article: ArticleTable;
  article_category: ArticleCategoryTable;
  comment: CommentTable;
  report: ReportTable;
  feedback: FeedbackTable;
  oauth_binding: OAuthBindingTable;
  oauth_state: OAuthStateTable;
  job: JobTable;
  favorite: FavoriteTable;
  search_record: SearchRecordTable;
  user_vip: UserVipTable;
  vip_log: VipLogTable;
  orders: OrdersTable;
  payment_notification: PaymentNotificationTable;
  sms_code: SmsCodeTable;
  sms_log: SmsLogTable;
  advertisement: AdvertisementTable;
  rate_limit: RateLimitTable;
  captcha: CaptchaTable;
  view_seen: ViewSeenTable;
  secret: SecretTable;
  change_counter: ChangeCounterTable;

  initial_password: InitialPasswordTable;
  message: MessageTable;
}

export const now = (): Timestamp => new Date().toISOString();
/**
 * The start of `at`'s day in the server's time zone (TZ, docs/operations.md "Time zone"), as stored
 * timestamps compare: every daily limit and count (downloads, favourite, comment and upload rewards)
 * starts there, as MOREDOC's do. `at`: the database's now (databaseNow), so that every machine
 * starts the day at the same moment, whatever its own clock says.
 */
export const startOfServerDay = (at: Date): Timestamp =>
  new Date(at.getFullYear(), at.getMonth(), at.getDate()).toISOString();
/** `at`'s day in the server's time zone, `YYYY-MM-DD`: the day that starts at startOfServerDay (databaseServerDay). */
export const serverDayOf = (at: Date): string =>
  [at.getFullYear(), at.getMonth() + 1, at.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
export const flag = (value: boolean): Flag => (value ? 1 : 0);
