// Business constants of docs/product.md §4, §8 and §9 and the enumerations of docs/moredoc.md §12,
// with the Chinese labels the UI shows.
import { formatBytes } from './format';

export interface Option<V extends string | number = number> {
  value: V;
  label: string;
}

/** The site's name of its credits when the admin has set none: the backend seeds it, the SPA falls back to it. */
export const DEFAULT_CREDIT_NAME = '魔豆';
/**
 * The most credits one change by an admin (UserAPI.AdjustUserCredit, docs/decisions/076) adds or
 * takes away, and the most a balance may hold after it (INTEGER of both engines).
 */
export const CREDIT_ADJUST_MAX = 100_000;
export const CREDIT_BALANCE_MAX = 2_147_483_647;

/** The label of `value` in `options`, or `fallback` when it has none. */
export function optionLabel<V extends string | number>(
  options: readonly Option<V>[],
  value: V | undefined,
  fallback = '',
): string {
  return options.find((o) => o.value === value)?.label ?? fallback;
}

// Limits (docs/product.md §9)
export const REQUEST_TIMEOUT_MS = 30_000;
export const NAVIGATION_PAGE_SIZE = 10_000;
export const TOKEN_COOKIE_NAME = 'token';

/** `security.max_document_size` (MB) as the upload limit in bytes: 50 MB when unset or ≤ 0, as MOREDOC. */
export function uploadLimitBytes(maxDocumentSizeMb: number | undefined): number {
  return (maxDocumentSizeMb !== undefined && maxDocumentSizeMb > 0 ? maxDocumentSizeMb : 50) * 1024 * 1024;
}
/**
 * What a multipart upload adds around its file (boundaries, part headers, a long file name):
 * an upload whose Content-Length passes the limit by more is refused from its headers.
 */
export const UPLOAD_ENVELOPE_BYTES = 64 * 1024;
/** The refusal of a file over the limit; `size`, when known, says by how much (1 B over reads 超出 1 B). */
export const uploadTooLargeMessage = (limitBytes: number, size?: number) =>
  `文件大小超出限制（最大 ${formatBytes(limitBytes)}${size === undefined ? '' : `，超出 ${formatBytes(size - limitBytes)}`}）`;

export const TOAST = {
  maxShown: 5,
  durationMs: 5_000,
  removeDelayMs: 200,
  hotkey: 'F8',
  placement: 'bottomRight',
} as const;

/** Minimum browser versions (docs/product.md §9), keyed by bowser's browser names. */
export const MIN_BROWSER_VERSIONS: Readonly<Record<string, string>> = {
  chrome: '117',
  chromium: '117',
  firefox: '63',
  safari: '14.1',
  'microsoft edge': '84',
  opera: '80',
  'android browser': '4.4',
  'internet explorer': '12',
};

// Messages (docs/product.md §2, §8)
export const UNSUPPORTED_BROWSER_MESSAGE =
  '您当前的浏览器版本过低，可能无法使用全部功能，请升级浏览器或下载最新版 Chrome 浏览器。';
/**
 * The attribute of the notice the gateway serves as a page while the backend cannot give a page
 * what it needs (gateway/page-render.ts `renderUnavailablePage`): the SPA does not start over it.
 */
export const UNAVAILABLE_PAGE_ATTRIBUTE = 'data-unavailable';
export const ERROR_SCREEN = {
  title: '出错啦！',
  description: '您访问的页面出现了问题，请稍后再试。',
  backHome: '返回首页',
} as const;
/** Toast fallbacks when the server gives no message (docs/product.md §8). */
export const FAILURE_FALLBACKS = {
  register: '注册失败',
  login: '登录失败',
  updateProfile: '修改失败',
  loadPermissions: '获取权限失败',
} as const;

// Document status (docs/product.md §4)
export const DocumentStatus = {
  Pending: 0,
  Converting: 1,
  Converted: 2,
  Failed: 3,
  Disabled: 4,
  Reconvert: 5,
  PendingReview: 6,
  ReviewRejected: 7,
} as const;
/**
 * The status of the documents visitors list (the library and the home page ask for it):
 * converted. Every count visitors see counts the documents in it outside the recycle bin
 * (docs/api.md, "Counts visitors see").
 */
export const LISTED_DOCUMENT_STATUS = DocumentStatus.Converted;
export const documentStatusOptions: readonly Option[] = [
  { value: 0, label: '待转换' },
  { value: 1, label: '转换中' },
  { value: 2, label: '已转换' },
  { value: 3, label: '转换失败' },
  { value: 4, label: '已禁用' },
  { value: 5, label: '重新转换' },
  { value: 6, label: '待审核' },
  { value: 7, label: '审核拒绝' },
];

/**
 * The reasons (`convert_error`) of a conversion that failed for the site's sake, not the file's:
 * out of time, a converter missing, crashed or interrupted, the stored original gone. The
 * converter fails with them (backend/platform/convert/errors.ts) and the document screens tell
 * the uploader by them that uploading the file again would not help.
 */
export const SITE_CONVERSION_FAILURES = {
  timeout: '文档转换超时',
  aborted: '文档转换已取消',
  failed: '文档转换失败',
  workerCrashed: '转换进程意外退出，文档转换失败',
  interrupted: '文档转换进程多次意外中断，已停止转换',
  converterMissing: '服务器未安装转换此格式所需的程序',
  libreofficeMissing: '服务器未安装 LibreOffice，无法转换此格式的文档',
  calibreMissing: '服务器未安装 calibre，无法转换此格式的电子书',
  originalMissing: '文档文件不存在，无法转换',
} as const;

/**
 * Whether a conversion failed with this reason for the site's sake (SITE_CONVERSION_FAILURES),
 * also with its particulars after it (文档转换超时（限时 30 分钟）).
 */
export const isSiteConversionFailure = (reason: string): boolean =>
  Object.values(SITE_CONVERSION_FAILURES).some((failure) => reason === failure || reason.startsWith(`${failure}（`));

/** Document type keys of the list and search filters (docs/moredoc.md §12). */
export const documentTypeOptions: readonly Option<string>[] = [
  { value: 'pdf', label: 'PDF' },
  { value: 'doc', label: 'Word' },
  { value: 'ppt', label: 'PPT' },
  { value: 'xls', label: 'Excel' },
  { value: 'txt', label: 'TXT' },
  { value: 'other', label: '电子书' },
];

// Comment review status (docs/product.md §4); articles use the same three values.
export const ReviewStatus = { Pending: 0, Approved: 1, Rejected: 2 } as const;
/**
 * The status of the articles visitors list (the public article lists ask for it, and ListArticle
 * answers a visitor nothing else): approved, i.e. published. Every count visitors see of articles
 * counts the articles in it outside the recycle bin (docs/api.md, "Counts visitors see").
 */
export const PUBLISHED_ARTICLE_STATUS = ReviewStatus.Approved;
export const reviewStatusOptions: readonly Option[] = [
  { value: 0, label: '待审核' },
  { value: 1, label: '审核通过' },
  { value: 2, label: '审核拒绝' },
];
export const commentStatusOptions = reviewStatusOptions;
export const articleStatusOptions = reviewStatusOptions;

/** Resource (attachment) types (docs/product.md §9); 8, feedback screenshots, is ours. */
export const resourceTypeOptions: readonly Option[] = [
  { value: 0, label: '未知' },
  { value: 1, label: '头像' },
  { value: 2, label: '文档' },
  { value: 3, label: '文章' },
  { value: 4, label: '评论' },
  { value: 5, label: '轮播图' },
  { value: 6, label: '分类封面' },
  { value: 7, label: '配置' },
  { value: 8, label: '反馈截图' },
];

export const bannerTypeOptions: readonly Option[] = [
  { value: 0, label: '网站轮播图' },
  { value: 1, label: '小程序轮播图' },
  { value: 2, label: 'APP轮播图' },
];

/** What a comment, a favourite or a report is about (docs/moredoc.md §12); reports on articles are ours. */
export const TargetType = { Document: 0, Article: 1 } as const;
/** What a report is about: a `TargetType`, or (ours, docs/decisions/072) another reader's comment. */
export const ReportType = { ...TargetType, Comment: 2 } as const;

/** `Report.status` is a boolean: processed or not. */
export const reportStatusOptions: readonly Option<string>[] = [
  { value: 'false', label: '未处理' },
  { value: 'true', label: '已处理' },
];

/** FeedbackAPI (ours): `Feedback.status`. */
export const FeedbackStatus = { New: 0, Handled: 1 } as const;
export const feedbackStatusOptions: readonly Option[] = [
  { value: 0, label: '待处理' },
  { value: 1, label: '已处理' },
];

export const reportReasonOptions: readonly Option[] = [
  { value: 1, label: '垃圾广告' },
  { value: 2, label: '淫秽色情' },
  { value: 3, label: '虚假中奖' },
  { value: 4, label: '敏感信息' },
  { value: 5, label: '人身攻击' },
  { value: 6, label: '骚扰他人' },
  // Ours: the rights holders the footer promises removal to.
  { value: 7, label: '侵权（版权）' },
];

/** The copyright reason: the report must say who holds the rights and how to reach them. */
export const COPYRIGHT_REPORT_REASON = 7;
export const COPYRIGHT_REPORT_HINT = '请说明您是权利人（或其代理人）、权属证明（如作品登记、出版信息）以及联系方式';

export const categoryTypeOptions: readonly Option[] = [
  { value: 0, label: '文档分类' },
  { value: 1, label: '文章分类' },
];

export const punishmentTypeOptions: readonly Option[] = [
  { value: 1, label: '禁用账号' },
  { value: 2, label: '禁止评论' },
  { value: 3, label: '禁止上传' },
  { value: 4, label: '禁止下载' },
  { value: 5, label: '禁止收藏' },
  { value: 6, label: '禁止发布文章' },
];

/** Permission methods; GRPC marks an API permission (docs/product.md §3). */
export const httpMethodOptions: readonly Option<string>[] = ['GET', 'POST', 'PUT', 'DELETE', 'GRPC'].map((m) => ({
  value: m,
  label: m,
}));

export interface AdSlotGroup {
  key: string;
  label: string;
  slots: readonly Option<string>[];
}

/** Advertisement slots by page (docs/product.md §9). */
export const adSlotGroups: readonly AdSlotGroup[] = [
  {
    key: 'global',
    label: '全局',
    slots: [
      { value: 'global_top', label: '全站顶部' },
      { value: 'global_bottom', label: '全站底部' },
    ],
  },
  {
    key: 'index',
    label: '首页',
    slots: [
      { value: 'index_banner_bottom', label: '轮播图下方' },
      { value: 'index_category_top', label: '分类上方' },
      { value: 'index_category_bottom', label: '分类下方' },
      { value: 'index_link_top', label: '友情链接上方' },
    ],
  },
  {
    key: 'list',
    label: '列表页',
    slots: [
      { value: 'list_nav_bottom', label: '导航下方' },
      { value: 'list_document_top', label: '文档列表上方' },
      { value: 'list_document_bottom', label: '文档列表下方' },
    ],
  },
  {
    key: 'document',
    label: '文档详情页',
    slots: [
      { value: 'document_top', label: '文档顶部' },
      { value: 'document_bottom', label: '文档底部' },
      { value: 'document_between', label: '文档页面之间' },
    ],
  },
  {
    key: 'user',
    label: '用户中心',
    slots: [
      { value: 'user_top', label: '用户中心顶部' },
      { value: 'user_document_top', label: '用户文档上方' },
    ],
  },
  {
    key: 'search',
    label: '搜索页',
    slots: [
      { value: 'search_top', label: '搜索结果上方' },
      { value: 'search_bottom', label: '搜索结果下方' },
      { value: 'search_right', label: '搜索结果右侧' },
    ],
  },
];

/** Every slot key of `adSlotGroups`, the positions an advertisement may take. */
export const AD_SLOTS: readonly string[] = adSlotGroups.flatMap((group) => group.slots.map((slot) => slot.value));

export function isAdSlot(value: string): boolean {
  return AD_SLOTS.includes(value);
}

export type ExtensionGroup =
  'pdf' | 'word' | 'ppt' | 'excel' | 'text' | 'epub' | 'mobi' | 'chm' | 'umd' | 'zip' | 'rar' | 'video' | 'other';

export interface ExtensionGroupDef {
  key: ExtensionGroup;
  label: string;
  /** Lower-case, without the dot. */
  extensions: readonly string[];
}

/** File extension groups (docs/product.md §9); the office groups follow the type keys of docs/moredoc.md §12. */
export const extensionGroups: readonly ExtensionGroupDef[] = [
  { key: 'pdf', label: 'PDF', extensions: ['pdf'] },
  { key: 'word', label: 'Word', extensions: ['doc', 'docx', 'rtf', 'wps', 'odt', 'dot', 'dotx'] },
  { key: 'ppt', label: 'PPT', extensions: ['ppt', 'pptx', 'pps', 'ppsx', 'dps', 'odp', 'pot', 'potx'] },
  { key: 'excel', label: 'Excel', extensions: ['xls', 'xlsx', 'et', 'ods', 'csv', 'tsv'] },
  { key: 'text', label: '文本', extensions: ['txt', 'md'] },
  { key: 'epub', label: 'EPUB', extensions: ['epub'] },
  { key: 'mobi', label: 'MOBI', extensions: ['mobi', 'azw', 'azw3', 'azw4'] },
  { key: 'chm', label: 'CHM', extensions: ['chm'] },
  { key: 'umd', label: 'UMD', extensions: ['umd'] },
  { key: 'zip', label: '压缩包', extensions: ['zip', '7z', 'gz', 'tar'] },
  { key: 'rar', label: 'RAR', extensions: ['rar'] },
  { key: 'video', label: '视频', extensions: ['mp4', 'webm', 'mov', 'avi', 'mkv', 'flv', 'wmv', 'm4v'] },
  { key: 'other', label: '其他', extensions: [] },
];

const groupOfExtension = new Map<string, ExtensionGroup>(
  extensionGroups.flatMap((g) => g.extensions.map((ext) => [ext, g.key] as const)),
);

function bareExtension(extOrName: string): string {
  const dot = extOrName.lastIndexOf('.');
  return (dot >= 0 ? extOrName.slice(dot + 1) : extOrName).trim().toLowerCase();
}

/** The group of an extension or file name (`.PDF`, `docx`, `报告.pptx`); unknown → 'other'. */
export function extensionGroup(extOrName: string): ExtensionGroup {
  return groupOfExtension.get(bareExtension(extOrName)) ?? 'other';
}

/** Image extensions (docs/product.md §9), lower-case, without the dot: what is shown as an image. */
export const IMAGE_EXTENSIONS: readonly string[] = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg'];

export function isImageExtension(extOrName: string): boolean {
  return IMAGE_EXTENSIONS.includes(bareExtension(extOrName));
}

/**
 * Extensions the image uploads accept (avatar, banner, category cover, config images):
 * SVG is left out because an uploaded SVG served from our origin could carry script;
 * favicons need .ico.
 */
export const UPLOAD_IMAGE_EXTENSIONS: readonly string[] = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'ico'];

export function isUploadImageExtension(extOrName: string): boolean {
  return UPLOAD_IMAGE_EXTENSIONS.includes(bareExtension(extOrName));
}

/** The extension groups (docs/product.md §9) whose files are documents that convert to pages; UMD never converts. */
export const DOCUMENT_EXTENSION_GROUPS: readonly ExtensionGroup[] = [
  'pdf',
  'word',
  'ppt',
  'excel',
  'text',
  'epub',
  'mobi',
  'chm',
];

/** Extensions `POST /api/v1/upload/document` accepts, lower-case, without the dot. */
export const DOCUMENT_EXTENSIONS: readonly string[] = extensionGroups
  .filter((g) => DOCUMENT_EXTENSION_GROUPS.includes(g.key))
  .flatMap((g) => g.extensions);

export function isDocumentExtension(extOrName: string): boolean {
  return DOCUMENT_EXTENSIONS.includes(bareExtension(extOrName));
}

/**
 * The type keys of the document lists and the search (`ext=pdf|doc|ppt|xls|txt|other`,
 * docs/moredoc.md §12) and the extensions each stands for, with their dot.
 */
export const DOCUMENT_TYPE_KEYS: Readonly<Record<string, readonly string[]>> = {
  pdf: ['.pdf'],
  doc: ['.doc', '.docx', '.rtf', '.wps', '.odt', '.dot'],
  ppt: ['.ppt', '.pptx', '.pps', '.ppsx', '.dps', '.odp', '.pot'],
  xls: ['.xls', '.xlsx', '.et', '.ods', '.csv', '.tsv'],
  txt: ['.txt'],
  other: ['.epub', '.mobi', '.chm', '.umd', '.azw', '.azw3', '.azw4'],
};

/**
 * The extensions of a type key (case-insensitive, a leading dot ignored), or null for none or an unknown key (no
 * filter).
 */
export function documentTypeExtensions(key: string): readonly string[] | null {
  return DOCUMENT_TYPE_KEYS[key.trim().toLowerCase().replace(/^\./, '')] ?? null;
}
// SMS codes (docs/api.md §6): what a code is for, the `test` message of the config page,
// and how a message fared, with the labels of the SMS admin screen.
export const SMS_CODE_PURPOSES = ['register', 'login', 'find_password', 'bind'] as const;
export type SmsCodePurpose = (typeof SMS_CODE_PURPOSES)[number];
export type SmsPurpose = SmsCodePurpose | 'test';
export const smsPurposeOptions: readonly Option<SmsPurpose>[] = [
  { value: 'register', label: '注册' },
  { value: 'login', label: '登录' },
  { value: 'find_password', label: '找回密码' },
  { value: 'bind', label: '绑定手机号' },
  { value: 'test', label: '测试短信' },
];
export const SmsStatus = { Sending: 0, Sent: 1, Failed: 2 } as const;
export const smsStatusOptions: readonly Option[] = [
  { value: SmsStatus.Sending, label: '发送中' },
  { value: SmsStatus.Sent, label: '成功' },
  { value: SmsStatus.Failed, label: '失败' },
];
export const smsProviderOptions: readonly Option<string>[] = [
  { value: 'log', label: '仅记录（开发测试）' },
  { value: 'aliyun', label: '阿里云短信' },
  { value: 'tencent', label: '腾讯云短信' },
];
/** A code is good for this long and this many wrong tries. */
export const SMS_CODE_TTL_MINUTES = 5;
export const SMS_CODE_MAX_ATTEMPTS = 5;
/** A mailed register code takes as many wrong tries as a texted one. */
export const EMAIL_CODE_MAX_ATTEMPTS = SMS_CODE_MAX_ATTEMPTS;
