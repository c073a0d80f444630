// Wire types of the MOREDOC API (contract/endpoints.md §4) and of the calls in SPEC §7.
// Keys are the snake_case proto names. The backend omits zero values (0, false, '', []),
// so every field it may omit is optional. Timestamps are RFC 3339 strings; int64 values
// travel as JSON numbers.

/** `google.protobuf.Empty`: `{}` in both directions. */
export type Empty = Record<string, never>;

/** Error body of every failed call (contract README §5). */
export interface ErrorBody {
  error?: string;
  /** gRPC code (16 Unauthenticated, 7 PermissionDenied, …), or the HTTP status for gateway errors. */
  code?: number;
  message?: string;
}

/** Query parameters common to the list calls; arrays travel as repeated keys. */
export interface PageRequest {
  page?: number;
  size?: number;
  wd?: string;
  field?: string[];
}

// ─── Entities ────────────────────────────────────────────────────────────────────────

export interface User {
  id?: number;
  username?: string;
  mobile?: string;
  email?: string;
  address?: string;
  signature?: string;
  last_login_ip?: string;
  register_ip?: string;
  doc_count?: number;
  follow_count?: number;
  fans_count?: number;
  favorite_count?: number;
  comment_count?: number;
  /** Never filled by MOREDOC (no column). */
  status?: number;
  avatar?: string;
  identity?: string;
  realname?: string;
  /** Filled only by `GET /api/v1/user/list`. */
  group_id?: number[];
  credit_count?: number;
  article_count?: number;
  remark?: string;
  login_at?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Group {
  id?: number;
  title?: string;
  color?: string;
  is_default?: boolean;
  is_display?: boolean;
  description?: string;
  user_count?: number;
  /** Higher first. */
  sort?: number;
  enable_upload?: boolean;
  enable_comment_approval?: boolean;
  enable_comment?: boolean;
  enable_document_review?: boolean;
  enable_article?: boolean;
  enable_article_approval?: boolean;
  created_at?: string;
  updated_at?: string;
}

export interface Permission {
  id?: number;
  /** `GRPC` for RPCs, an HTTP verb (`POST`) for upload routes. */
  method?: string;
  /** Full gRPC method (`/api.v1.UserAPI/ListUser`) or HTTP path (`/api/v1/upload/banner`). */
  path?: string;
  title?: string;
  description?: string;
  created_at?: string;
  updated_at?: string;
}

/** Config categories: MOREDOC's (contract/config-keys.md §2) and the three SPEC adds. */
export type ConfigCategory =
  | 'system' | 'captcha' | 'security' | 'footer' | 'converter' | 'download' | 'score' | 'email' | 'display' | 'release'
  | 'pay' | 'vip' | 'oauth';

export type ConfigInputType = 'text' | 'textarea' | 'number' | 'switch' | 'select' | 'select-multi' | 'password' | 'image';

/** One configuration row; `value` is always a string on the wire. */
export interface Config {
  id?: number;
  label?: string;
  name?: string;
  value?: string;
  placeholder?: string;
  input_type?: ConfigInputType | string;
  category?: ConfigCategory | string;
  /** Ascending within a category. */
  sort?: number;
  /** For select inputs: one `value:label` option per line. */
  options?: string;
  /** Form width in a 24-column grid. */
  col_num?: number;
  created_at?: string;
  updated_at?: string;
}

export interface ConfigSystem {
  domain?: string;
  title?: string;
  keywords?: string;
  description?: string;
  logo?: string;
  favicon?: string;
  icp?: string;
  analytics?: string;
  sitename?: string;
  copyright_start_year?: string;
  register_background?: string;
  login_background?: string;
  recommend_words?: string[];
  version?: string;
  credit_name?: string;
  sec_icp?: string;
}

export interface ConfigFooter {
  about?: string;
  contact?: string;
  agreement?: string;
  copyright?: string;
  feedback?: string;
}

export interface ConfigSecurity {
  is_close?: boolean;
  close_statement?: string;
  enable_register?: boolean;
  enable_captcha_login?: boolean;
  enable_captcha_register?: boolean;
  enable_captcha_comment?: boolean;
  enable_captcha_find_password?: boolean;
  enable_captcha_upload?: boolean;
  /** MB. */
  max_document_size?: number;
  document_allowed_ext?: string[];
  login_required?: boolean;
  enable_verify_register_email?: boolean;
}

export interface ConfigDisplay {
  show_register_user_count?: boolean;
  show_index_categories?: boolean;
  pages_per_read?: number;
  copyright_statement?: string;
  show_document_descriptions?: boolean;
  hide_keywords_on_lists?: boolean;
  show_document_count?: boolean;
  show_document_view_count?: boolean;
  show_document_download_count?: boolean;
  show_document_favorite_count?: boolean;
  hide_category_without_document?: boolean;
  wechat_tip?: string;
  wechat_qrcode?: string;
  contact_tip?: string;
  contact_link?: string;
  index_document_style?: string;
  home_version?: string;
}

/** Captcha rendering (not public; `GET /api/v1/config/list?category=captcha`). */
export interface ConfigCaptcha {
  length?: number;
  width?: number;
  height?: number;
  /** `digit`, `string`, `math` or `audio`. */
  type?: string;
}

/** Public part of the vip category SPEC adds; the backend designs the keys (docs/api.md). */
/** One VIP membership plan (docs/api.md: `vip.plans`, one `code|title|days|price|description` per line). */
export interface VipPlan {
  code?: string;
  title?: string;
  days?: number;
  /** In yuan. */
  price?: number;
  description?: string;
}

/** Public part of our `vip` config category (docs/api.md §2). */
export interface ConfigVip {
  enable?: boolean;
  title?: string;
  description?: string;
  plans?: VipPlan[];
  free_download?: boolean;
  times_every_day?: number;
  /** HTML shown on the VIP page. */
  benefits?: string;
}

/** Public part of our `pay` config category: secrets never leave the backend. */
export interface ConfigPay {
  enable?: boolean;
  /** `alipay` or `wechat`. */
  provider?: string;
}

/** Social sign-in switches of SPEC §1 (both default false). */
export interface ConfigOauth {
  wechat?: boolean;
  qq?: boolean;
}

/** `GET /api/v1/settings` (contract/config-keys.md §3, plus SPEC's vip and oauth). */
export interface Settings {
  system?: ConfigSystem;
  footer?: ConfigFooter;
  security?: ConfigSecurity;
  display?: ConfigDisplay;
  /** Enabled languages, only `id`, `language` and `code`. */
  language?: Language[];
  vip?: ConfigVip;
  oauth?: ConfigOauth;
  pay?: ConfigPay;
}

export interface Navigation {
  id?: number;
  title?: string;
  /** Absolute URL or site path. */
  href?: string;
  /** `_self` or `_blank`. */
  target?: string;
  color?: string;
  /** Higher first. */
  sort?: number;
  /** False rows are still listed; the client filters. */
  enable?: boolean;
  /** 0 (or absent) = top level. */
  parent_id?: number;
  description?: string;
  /** Built-in entry that cannot be deleted. */
  fixed?: boolean;
  created_at?: string;
  updated_at?: string;
  children?: Navigation[];
}

export interface Category {
  id?: number;
  /** 0 (or absent) = top level. */
  parent_id?: number;
  title?: string;
  doc_count?: number;
  /** Higher first. */
  sort?: number;
  enable?: boolean;
  cover?: string;
  icon?: string;
  description?: string;
  show_description?: boolean;
  /** 0 document category, 1 article category. */
  type?: number;
  created_at?: string;
  updated_at?: string;
}

export interface Friendlink {
  id?: number;
  title?: string;
  link?: string;
  description?: string;
  sort?: number;
  enable?: boolean;
  created_at?: string;
  updated_at?: string;
}

export interface Banner {
  id?: number;
  title?: string;
  /** Image URL path. */
  path?: string;
  sort?: number;
  enable?: boolean;
  /** 0 website, 1 mini-program, 2 app. */
  type?: number;
  /** Click-through link. */
  url?: string;
  description?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Language {
  id?: number;
  /** Display name (Chinese). */
  language?: string;
  enable?: boolean;
  /** `zh-CN`, `en`, … */
  code?: string;
  /** Document counter. */
  total?: number;
  sort?: number;
  created_at?: string;
  updated_at?: string;
}

export interface Attachment {
  id?: number;
  /** MD5 hex of the content. */
  hash?: string;
  user_id?: number;
  type_id?: number;
  /** Resource type, see constants `resourceTypeOptions`. */
  type?: number;
  enable?: boolean;
  path?: string;
  name?: string;
  size?: number;
  width?: number;
  height?: number;
  ext?: string;
  ip?: string;
  username?: string;
  type_name?: string;
  description?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Punishment {
  id?: number;
  user_id?: number;
  /** See constants `punishmentTypeOptions`. */
  type?: number;
  enable?: boolean;
  /** JSON text: `[{"u":<admin id>,"t":<type>,"ts":<unix seconds>}]`. */
  operators?: string;
  remark?: string;
  reason?: string;
  username?: string;
  /** Absent = permanent. */
  end_time?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Document {
  id?: number;
  title?: string;
  keywords?: string;
  description?: string;
  user_id?: number;
  cover?: string;
  width?: number;
  height?: number;
  preview?: number;
  pages?: number;
  uuid?: string;
  download_count?: number;
  view_count?: number;
  favorite_count?: number;
  comment_count?: number;
  score?: number;
  score_count?: number;
  price?: number;
  size?: number;
  /** See constants `DocumentStatus`. */
  status?: number;
  deleted_user_id?: number;
  username?: string;
  category_id?: number[];
  deleted_username?: string;
  ext?: string;
  attachment?: Attachment;
  user?: User;
  enable_gzip?: boolean;
  convert_error?: string;
  preview_ext?: string;
  language?: string;
  content?: string;
  category?: Category[];
  created_at?: string;
  updated_at?: string;
  deleted_at?: string;
  recommend_at?: string;
}

export interface Article {
  id?: number;
  identifier?: string;
  author?: string;
  view_count?: number;
  title?: string;
  keywords?: string;
  description?: string;
  content?: string;
  category_id?: number[];
  favorite_count?: number;
  comment_count?: number;
  is_recommend?: boolean;
  user_id?: number;
  user?: User;
  /** 0 pending, 1 published, 2 rejected. */
  status?: number;
  reject_reason?: string;
  category?: Category[];
  created_at?: string;
  updated_at?: string;
  deleted_at?: string;
  recommend_at?: string;
}

export interface Comment {
  id?: number;
  parent_id?: number;
  content?: string;
  document_id?: number;
  /** 0 pending, 1 approved, 2 rejected. */
  status?: number;
  comment_count?: number;
  user_id?: number;
  user?: User;
  document_title?: string;
  /** 0 document comment, 1 article comment. */
  type?: number;
  document_uuid?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Report {
  id?: number;
  document_id?: number;
  user_id?: number;
  /** See constants `reportReasonOptions`. */
  reason?: number;
  /** True = processed. */
  status?: boolean;
  document_title?: string;
  remark?: string;
  username?: string;
  created_at?: string;
  updated_at?: string;
}

export interface SearchRecord {
  id?: number;
  user_id?: number;
  ip?: string;
  total?: number;
  page?: number;
  user_agent?: string;
  keywords?: string;
  spend_time?: number;
  username?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Advertisement {
  id?: number;
  user_id?: number;
  /** Slot key, see constants `adSlotGroups`. */
  position?: string;
  content?: string;
  enable?: boolean;
  remark?: string;
  title?: string;
  start_time?: string;
  end_time?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Favorite {
  id?: number;
  user_id?: number;
  document_id?: number;
  title?: string;
  ext?: string;
  score?: number;
  size?: number;
  pages?: number;
  document_uuid?: string;
  type?: number;
  created_at?: string;
  updated_at?: string;
}

export interface Download {
  id?: number;
  user_id?: number;
  document_id?: number;
  ip?: string;
  is_pay?: boolean;
  title?: string;
  ext?: string;
  score?: number;
  size?: number;
  pages?: number;
  document_uuid?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Dynamic {
  id?: number;
  user_id?: number;
  /** May contain HTML links. */
  content?: string;
  type?: number;
  username?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Sign {
  id?: number;
  user_id?: number;
  /** Date as the integer YYYYMMDD. */
  sign_at?: number;
  ip?: string;
  award?: number;
  created_at?: string;
}

// ─── Replies ─────────────────────────────────────────────────────────────────────────

/** Register and login. Through the gateway the token is moved into the cookie and absent. */
export interface LoginReply {
  token?: string;
  user?: User;
}

export interface GetUserCaptchaReply {
  enable?: boolean;
  id?: string;
  /** base64 `data:` URI (PNG, or WAV for audio). */
  captcha?: string;
  type?: string;
}

export interface Stats {
  user_count?: number;
  document_count?: number;
  category_count?: number;
  article_count?: number;
  comment_count?: number;
  banner_count?: number;
  friendlink_count?: number;
  report_count?: number;
  os?: string;
  version?: string;
  hash?: string;
  build_at?: string;
}

export interface EnvDependent {
  name?: string;
  description?: string;
  is_installed?: boolean;
  error?: string;
  checked_at?: string;
  cmd?: string;
  is_required?: boolean;
  version?: string;
}

export interface Envs {
  envs?: EnvDependent[];
}

export interface CPUInfo {
  cores?: number;
  model_name?: string;
  mhz?: number;
  percent?: number;
}

export interface MemoryInfo {
  total?: number;
  available?: number;
  used?: number;
  free?: number;
  percent?: number;
}

export interface DiskInfo {
  disk_name?: string;
  total?: number;
  used?: number;
  free?: number;
  percent?: number;
}

export interface DeviceInfo {
  cpu?: CPUInfo;
  memory?: MemoryInfo;
  disk?: DiskInfo[];
}

export interface Release {
  tag_name?: string;
  name?: string;
  body?: string;
  release_at?: string;
  ignore?: string;
  /** `none`, `auto`, `gitee` or `github`. */
  source?: string;
  current?: string;
}

export interface GroupPermissions {
  permission_id?: number[];
}

export interface Configs {
  config?: Config[];
}

export interface GetUserPermissionsReply {
  permission?: Permission[];
}

export interface ListUserReply { total?: number; user?: User[] }
export interface ListUserGroupReply { group?: Group[] }
export interface ListGroupReply { total?: number; group?: Group[] }
export interface ListPermissionReply { total?: number; permission?: Permission[] }
export interface ListNavigationReply { total?: number; navigation?: Navigation[] }
/** `total` is never returned by ListCategory. */
export interface ListCategoryReply { total?: number; category?: Category[] }
export interface ListFriendlinkReply { total?: number; friendlink?: Friendlink[] }
export interface ListBannerReply { total?: number; banner?: Banner[] }
export interface ListLanguageReply { total?: number; language?: Language[] }
export interface ListAttachmentReply { total?: number; attachment?: Attachment[] }
export interface ListPunishmentReply { total?: number; punishment?: Punishment[] }
export interface ListDocumentReply { total?: number; document?: Document[] }
export interface ListArticleReply { total?: number; article?: Article[] }
export interface ListCommentReply { total?: number; comment?: Comment[] }
export interface ListReportReply { total?: number; report?: Report[] }
export interface ListSearchRecordReply { total?: number; search_record?: SearchRecord[] }
export interface ListAdvertisementReply { total?: number; advertisement?: Advertisement[] }
export interface ListFavoriteReply { total?: number; favorite?: Favorite[] }
export interface ListDownloadReply { total?: number; download?: Download[] }
export interface ListUserDownloadReply { total?: number; download?: Download[] }
export interface ListUserDynamicReply { total?: number; dynamic?: Dynamic[] }

/** `POST /api/v1/upload/avatar|config|banner|category` (contract README §8.2). */
export interface UploadImageReply {
  code?: number;
  message?: string;
  data?: Attachment;
}

/** `POST /api/v1/upload/document` (contract README §8.1). */
export interface UploadDocumentReply {
  code?: number;
  message?: string;
  data?: { id?: number };
}

// ─── Requests ────────────────────────────────────────────────────────────────────────

export interface RegisterAndLoginRequest {
  username: string;
  password: string;
  captcha?: string;
  captcha_id?: string;
  email?: string;
  /** E-mailed registration code, when the security config requires it. */
  code?: string;
}
export type RegisterRequest = RegisterAndLoginRequest;
export type LoginRequest = RegisterAndLoginRequest;

/** No id (or 0) = the caller. */
export interface GetUserRequest { id?: number }

export interface UpdateUserPasswordRequest {
  /** Omitted = own password (then `old_password` is checked). */
  id?: number;
  old_password?: string;
  new_password: string;
}

/** Writes mobile, email, address, signature, avatar, realname, identity (and remark for admins). */
export type UpdateUserProfileRequest = User & { id: number };

export interface DeleteUserRequest {
  id: number[];
  /** The caller's own password. */
  password: string;
}

/** AddUser (`POST /api/v1/user`) and SetUser (`PUT /api/v1/user`). */
export interface SetUserRequest {
  id?: number;
  username?: string;
  password?: string;
  group_id?: number[];
  email?: string;
}

export interface ListUserRequest extends PageRequest {
  sort?: string;
  id?: number[];
  group_id?: number[];
  status?: number[];
  limit?: number;
}

export type CaptchaType = 'register' | 'login' | 'find_password' | 'comment';
export interface GetUserCaptchaRequest { type: CaptchaType }

export interface ListUserDownloadRequest { page?: number; size?: number }
export interface ListUserDynamicRequest { page?: number; size?: number }

/** Step one uses email + captcha; step two email, token, password + captcha. */
export interface FindPasswordRequest {
  email?: string;
  token?: string;
  password?: string;
  captcha?: string;
  captcha_id?: string;
}

export interface SendEmailCodeRequest {
  email: string;
  captcha?: string;
  captcha_id?: string;
  /** 0 register (the only one that works), 1 login. */
  type?: number;
}

export interface GetGroupRequest { id: number }
export interface DeleteGroupRequest { id: number[] }
export interface ListGroupRequest extends PageRequest { sort?: string }
export interface GetGroupPermissionRequest { id: number }
export interface UpdateGroupPermissionRequest {
  group_id: number;
  /** Replaces the group's grants. */
  permission_id: number[];
}

export interface GetPermissionRequest { id: number }
export interface ListPermissionRequest extends Omit<PageRequest, 'field'> {
  method?: string[];
  path?: string;
}

export interface ListConfigRequest { category: (ConfigCategory | string)[] }
/** `PUT /api/v1/config`: rows as listed, with edited `value`; updated by id. */
export type UpdateConfigRequest = Configs;

export interface GetNavigationRequest { id: number }
export interface DeleteNavigationRequest { id: number[] }
export interface ListNavigationRequest extends PageRequest {
  /** Comma-separated, default `sort desc`. */
  order?: string;
}

export interface GetCategoryRequest { id: number }
export interface DeleteCategoryRequest { id: number[] }
export interface ListCategoryRequest extends PageRequest {
  parent_id?: number[];
  enable?: boolean[];
  /** Defaults to [0] (document categories) when omitted. */
  type?: number[];
}

export interface GetFriendlinkRequest { id: number }
export interface DeleteFriendlinkRequest { id: number[] }
export interface ListFriendlinkRequest extends PageRequest { enable?: boolean[] }

export interface GetBannerRequest { id: number }
export interface DeleteBannerRequest { id: number[] }
export interface ListBannerRequest extends PageRequest {
  type?: number[];
  enable?: boolean[];
}

export interface UpdateLanguageStatusRequest { id: number[]; enable: boolean }
export interface DeleteLanguageRequest { id: number[] }
export interface ListLanguageRequest extends PageRequest { enable?: boolean[] }

export interface CreatePunishmentRequest {
  user_id: number[];
  type: number[];
  enable?: boolean;
  remark?: string;
  reason?: string;
  /** Omitted = permanent. */
  end_time?: string;
}
export interface GetPunishmentRequest { id: number }
export interface CancelPunishmentRequest { id: number[] }
export interface ListPunishmentRequest extends PageRequest {
  order?: string;
  type?: number[];
  enable?: number[];
  user_id?: number[];
}

export interface GetAttachmentRequest { id: number }
export interface DeleteAttachmentRequest { id: number[] }
export interface ListAttachmentRequest extends Omit<PageRequest, 'field'> {
  enable?: boolean[];
  user_id?: number[];
  type?: number[];
  ext?: string;
}

// ─── Calls ───────────────────────────────────────────────────────────────────────────

/**
 * Request and response of each call of SPEC §7 (and of the other calls of the services
 * the first backend issue serves), keyed by `METHOD path`. GET and DELETE requests travel
 * as query strings (arrays as repeated keys), the others as JSON bodies.
 */
export interface ApiCalls {
  'POST /api/v1/user/register': { request: RegisterRequest; response: LoginReply };
  'POST /api/v1/user/login': { request: LoginRequest; response: LoginReply };
  'DELETE /api/v1/user/logout': { request: Empty; response: Empty };
  'GET /api/v1/user': { request: GetUserRequest; response: User };
  'GET /api/v1/user/caniuploaddocument': { request: Empty; response: Empty };
  'PUT /api/v1/user/password': { request: UpdateUserPasswordRequest; response: Empty };
  'PUT /api/v1/user/profile': { request: UpdateUserProfileRequest; response: Empty };
  'DELETE /api/v1/user': { request: DeleteUserRequest; response: Empty };
  'POST /api/v1/user': { request: SetUserRequest; response: Empty };
  'PUT /api/v1/user': { request: SetUserRequest; response: Empty };
  'GET /api/v1/user/list': { request: ListUserRequest; response: ListUserReply };
  'GET /api/v1/user/captcha': { request: GetUserCaptchaRequest; response: GetUserCaptchaReply };
  'GET /api/v1/user/download': { request: ListUserDownloadRequest; response: ListUserDownloadReply };
  'GET /api/v1/user/permission': { request: Empty; response: GetUserPermissionsReply };
  'GET /api/v1/user/group': { request: Empty; response: ListUserGroupReply };
  'GET /api/v1/user/dynamic': { request: ListUserDynamicRequest; response: ListUserDynamicReply };
  'PUT /api/v1/user/sign': { request: Empty; response: Sign };
  'GET /api/v1/user/sign': { request: Empty; response: Sign };
  'POST /api/v1/user/email/code': { request: SendEmailCodeRequest; response: Empty };
  'POST /api/v1/user/findpassword/stepone': { request: FindPasswordRequest; response: Empty };
  'PUT /api/v1/user/findpassword/steptwo': { request: FindPasswordRequest; response: Empty };

  'GET /api/v1/settings': { request: Empty; response: Settings };
  'PUT /api/v1/config': { request: UpdateConfigRequest; response: Empty };
  'GET /api/v1/config/list': { request: ListConfigRequest; response: Configs };
  'PUT /api/v1/sitemap': { request: Empty; response: Empty };
  'GET /api/v1/stats': { request: Empty; response: Stats };
  'GET /api/v1/envs': { request: Empty; response: Envs };
  'GET /api/v1/device': { request: Empty; response: DeviceInfo };
  'GET /api/v1/release': { request: Empty; response: Release };
  'PUT /api/v1/sqlmode': { request: Empty; response: Empty };

  'POST /api/v1/navigation': { request: Navigation; response: Navigation };
  'PUT /api/v1/navigation': { request: Navigation; response: Empty };
  'DELETE /api/v1/navigation': { request: DeleteNavigationRequest; response: Empty };
  'GET /api/v1/navigation': { request: GetNavigationRequest; response: Navigation };
  'GET /api/v1/navigation/list': { request: ListNavigationRequest; response: ListNavigationReply };

  'POST /api/v1/category': { request: Category; response: Empty };
  'PUT /api/v1/category': { request: Category; response: Empty };
  'DELETE /api/v1/category': { request: DeleteCategoryRequest; response: Empty };
  'GET /api/v1/category': { request: GetCategoryRequest; response: Category };
  'GET /api/v1/category/list': { request: ListCategoryRequest; response: ListCategoryReply };

  'POST /api/v1/group': { request: Group; response: Group };
  'PUT /api/v1/group': { request: Group; response: Empty };
  'DELETE /api/v1/group': { request: DeleteGroupRequest; response: Empty };
  'GET /api/v1/group': { request: GetGroupRequest; response: Group };
  'GET /api/v1/group/list': { request: ListGroupRequest; response: ListGroupReply };
  'GET /api/v1/group/permission': { request: GetGroupPermissionRequest; response: GroupPermissions };
  'PUT /api/v1/group/permission': { request: UpdateGroupPermissionRequest; response: Empty };

  'PUT /api/v1/permission': { request: Permission; response: Empty };
  'GET /api/v1/permission': { request: GetPermissionRequest; response: Permission };
  'GET /api/v1/permission/list': { request: ListPermissionRequest; response: ListPermissionReply };

  'POST /api/v1/friendlink': { request: Friendlink; response: Friendlink };
  'PUT /api/v1/friendlink': { request: Friendlink; response: Empty };
  'DELETE /api/v1/friendlink': { request: DeleteFriendlinkRequest; response: Empty };
  'GET /api/v1/friendlink': { request: GetFriendlinkRequest; response: Friendlink };
  'GET /api/v1/friendlink/list': { request: ListFriendlinkRequest; response: ListFriendlinkReply };

  'POST /api/v1/banner': { request: Banner; response: Banner };
  'PUT /api/v1/banner': { request: Banner; response: Empty };
  'DELETE /api/v1/banner': { request: DeleteBannerRequest; response: Empty };
  'GET /api/v1/banner': { request: GetBannerRequest; response: Banner };
  'GET /api/v1/banner/list': { request: ListBannerRequest; response: ListBannerReply };

  'POST /api/v1/language': { request: Language; response: Empty };
  'PUT /api/v1/language': { request: Language; response: Empty };
  'PUT /api/v1/language/status': { request: UpdateLanguageStatusRequest; response: Empty };
  'DELETE /api/v1/language': { request: DeleteLanguageRequest; response: Empty };
  'GET /api/v1/language/list': { request: ListLanguageRequest; response: ListLanguageReply };

  'POST /api/v1/punishment': { request: CreatePunishmentRequest; response: Empty };
  'PUT /api/v1/punishment': { request: Punishment; response: Empty };
  'GET /api/v1/punishment': { request: GetPunishmentRequest; response: Punishment };
  'GET /api/v1/punishment/list': { request: ListPunishmentRequest; response: ListPunishmentReply };
  'PUT /api/v1/punishment/cancel': { request: CancelPunishmentRequest; response: Empty };

  'PUT /api/v1/attachment': { request: Attachment; response: Empty };
  'DELETE /api/v1/attachment': { request: DeleteAttachmentRequest; response: Empty };
  'GET /api/v1/attachment': { request: GetAttachmentRequest; response: Attachment };
  'GET /api/v1/attachment/list': { request: ListAttachmentRequest; response: ListAttachmentReply };
}

export type ApiCallKey = keyof ApiCalls;
export type ApiRequest<K extends ApiCallKey> = ApiCalls[K]['request'];
export type ApiResponse<K extends ApiCallKey> = ApiCalls[K]['response'];

// ─── Page start data ─────────────────────────────────────────────────────────────────

/** Inlined by the gateway as `<script type="application/json" id="start-data">` (INTERFACES.md). */
export interface StartData {
  /** Body of `GET /api/v1/settings`. */
  settings: Settings;
  /** Flat, raw `navigation` of `GET /api/v1/navigation/list?page=1&size=10000`. */
  navigation: Navigation[];
  /** Raw `category` of `GET /api/v1/category/list`, all types. */
  categories: Category[];
  /** Only for a visitor with a valid cookie: `GET /api/v1/user`. */
  user?: User;
  /** Only for a visitor with a valid cookie: `permission` of `GET /api/v1/user/permission`. */
  permissions?: Permission[];
}
