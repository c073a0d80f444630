// The state of a batch of document files: each file is checked before it is sent (type,
// size), uploaded with its progress, then described (title, category, price, description)
// and published as a document. One file's refusal or failure never stops the others.
import { DOCUMENT_EXTENSIONS, uploadLimitBytes, uploadTooLargeMessage } from '../../../../shared/constants';
import type { ConfigSecurity } from '../../../../shared/types/config';
import { cleanName } from '../../../../shared/validation';
import { checkMaxLength, checkRequired, collectErrors, type Errors } from '../../kit/forms/checks';

export type UploadPhase =
  | 'refused'
  | 'waiting'
  | 'uploading'
  | 'failed'
  | 'uploaded'
  | 'duplicate'
  | 'publishing'
  | 'published'
  | 'publish-failed';

/** The member's own document of a file's bytes, as the upload's answer names it. */
export interface PublishedCopy {
  id: number;
  title: string;
  status?: number;
}

export type DetailField = 'title' | 'category' | 'price' | 'description';

export interface UploadItem {
  key: number;
  file: File;
  phase: UploadPhase;
  /** 0…1 while uploading. */
  progress: number;
  /** Uploading, its last byte sent: the server is handling the file (正在处理), its answer to come. */
  sent?: boolean;
  /** Why the file was refused, or why its upload or publication failed. */
  reason?: string;
  /** A failed upload that may pass if sent again (no answer, the server unavailable): 重试 is offered. */
  retryable?: boolean;
  attachmentId?: number;
  /** The uploaded file's MD5, when the server tells it (ours: docs/api.md §7). */
  hash?: string;
  /** The member's document already made from this file's bytes (decision 090): the upload is 内容重复. */
  publishedAs?: PublishedCopy;
  title: string;
  categoryId?: number;
  price: string;
  description: string;
  errors: Errors<DetailField>;
}

export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 512;
export const PRICE_MAX = 1_000_000;

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '');

/** The file's name without its extension: the document's first title. */
/** The file's name without its extension, cleaned as the server stores titles (cleanName). */
export const titleFromFileName = (name: string) =>
  cleanName(name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name);

/**
 * Why a file cannot be uploaded under the security settings and the formats the server
 * converts now (`formats`, when known), or undefined.
 */
export function refusalOf(
  file: File,
  security: ConfigSecurity | undefined,
  formats?: readonly string[],
): string | undefined {
  const ext = extensionOf(file.name);
  const allowed = (security?.document_allowed_ext ?? []).map((e) => e.replace(/^\./, '').toLowerCase()).filter(Boolean);
  if (!DOCUMENT_EXTENSIONS.includes(ext) || (allowed.length > 0 && !allowed.includes(ext))) {
    return `不支持的文档类型${ext ? `（.${ext}）` : ''}`;
  }
  if (formats && !formats.includes(ext)) return `服务器暂时无法转换 .${ext} 格式的文档`;
  if (file.size === 0) return '文件为空';
  const limit = uploadLimitBytes(security?.max_document_size);
  if (file.size > limit) return uploadTooLargeMessage(limit, file.size);
  return undefined;
}

let nextKey = 1;

export function newItem(
  file: File,
  security: ConfigSecurity | undefined,
  defaults: { categoryId?: number; price?: string },
  formats?: readonly string[],
): UploadItem {
  const reason = refusalOf(file, security, formats);
  return {
    key: nextKey++,
    file,
    phase: reason ? 'refused' : 'waiting',
    progress: 0,
    reason,
    // Characters, as the server counts them: a cut by UTF-16 units can split an emoji, a title
    // the server refuses (an unpaired surrogate).
    title: [...titleFromFileName(file.name)].slice(0, TITLE_MAX).join(''),
    categoryId: defaults.categoryId,
    price: defaults.price ?? '0',
    description: '',
    errors: {},
  };
}

/** The same file picked again: same name, size and last-modified time. */
const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

export const ALREADY_LISTED = '已在列表中，不会重复上传';

/** An upload whose bytes another file of the batch already brought, under another name. */
export const sameContentAs = (name: string) => `与“${name}”的内容相同，不会重复发布`;

/** An upload whose bytes the member made a document of before (decision 090): the same pages again. */
export const publishedAs = (title: string) => `您已上传过内容相同的文档《${title}》，不会重复发布`;

/** The phases of a file whose content the batch holds to publish, or published. */
const HOLDS_CONTENT: readonly UploadPhase[] = ['uploaded', 'publishing', 'published', 'publish-failed'];

/**
 * The items of newly picked files, after the ones already listed: a file already in the list
 * (not refused) or picked twice in this pick is refused, so one file never becomes two documents.
 */
export function newItems(
  files: readonly File[],
  listed: readonly UploadItem[],
  security: ConfigSecurity | undefined,
  defaults: { categoryId?: number; price?: string },
  formats?: readonly string[],
): UploadItem[] {
  const taken = listed
    .filter((item) => item.phase !== 'refused' && item.phase !== 'duplicate')
    .map((item) => item.file);
  return files.map((file) => {
    if (taken.some((other) => sameFile(other, file)))
      return { ...newItem(file, security, defaults, formats), phase: 'refused', reason: ALREADY_LISTED };
    const item = newItem(file, security, defaults, formats);
    if (item.phase !== 'refused') taken.push(file);
    return item;
  });
}

/** What is wrong with a typed price (a row's, or 统一设置's before it reaches the rows); undefined when nothing. */
export function checkPrice(typed: string): string | undefined {
  const price = typed.trim();
  return price === ''
    ? '请输入价格'
    : !/^\d+$/.test(price)
      ? '价格必须是不小于 0 的整数'
      : Number(price) > PRICE_MAX
        ? `价格不能超过 ${PRICE_MAX}`
        : undefined;
}

/** The checks of a file's details before it is published; null when they pass. */
export function checkDetails(
  item: Pick<UploadItem, 'title' | 'categoryId' | 'price' | 'description'>,
): Errors<DetailField> | null {
  return collectErrors<DetailField>({
    title:
      checkRequired(cleanName(item.title), '请输入文档标题') ??
      checkMaxLength(cleanName(item.title), TITLE_MAX, '文档标题'),
    category: item.categoryId ? undefined : '请选择文档分类',
    price: checkPrice(item.price),
    description: checkMaxLength(item.description.trim(), DESCRIPTION_MAX, '文档简介'),
  });
}

export type DetailsPatch = Partial<Pick<UploadItem, 'title' | 'categoryId' | 'price' | 'description'>>;

export type UploadAction =
  | { type: 'add'; items: UploadItem[] }
  | { type: 'remove'; key: number }
  | { type: 'start'; key: number }
  | { type: 'progress'; key: number; progress: number }
  | { type: 'sent'; key: number }
  | { type: 'uploaded'; key: number; attachmentId: number; hash?: string; publishedAs?: PublishedCopy }
  | { type: 'failed'; key: number; reason: string; retryable: boolean }
  | { type: 'retry'; key: number }
  | { type: 'edit'; key: number; patch: DetailsPatch }
  | { type: 'apply-to-all'; patch: Partial<Pick<UploadItem, 'categoryId' | 'price'>> }
  | { type: 'invalid'; key: number; errors: Errors<DetailField> }
  | { type: 'publishing'; key: number }
  | { type: 'published'; key: number }
  /** `duplicate`: the server refused it as a document it has already (409): the row is 内容重复, not to retry. */
  | { type: 'publish-failed'; key: number; reason: string; duplicate?: boolean };

/**
 * `keeper` with the title and the description the member typed into `leaver` (a copy of its
 * bytes marked 内容重复), each where `keeper`'s own is still what it was given: the title from
 * its file name, no description. What the member typed into `keeper` stays.
 */
function withTypedDetails(keeper: UploadItem, leaver: UploadItem): UploadItem {
  const given = (item: UploadItem) => item.title === titleFromFileName(item.file.name).slice(0, TITLE_MAX);
  return {
    ...keeper,
    title: given(keeper) && !given(leaver) ? leaver.title : keeper.title,
    description: keeper.description.trim() === '' ? leaver.description : keeper.description,
  };
}

const editable = (item: UploadItem) =>
  item.phase === 'uploaded' ||
  item.phase === 'publish-failed' ||
  item.phase === 'waiting' ||
  item.phase === 'uploading';

export function uploadQueue(items: UploadItem[], action: UploadAction): UploadItem[] {
  const update = (key: number, change: (item: UploadItem) => UploadItem) =>
    items.map((item) => (item.key === key ? change(item) : item));
  switch (action.type) {
    case 'add':
      return [...items, ...action.items];
    case 'remove':
      return items.filter((item) => item.key !== action.key);
    case 'start':
      return update(action.key, (item) => ({ ...item, phase: 'uploading', progress: 0, sent: false }));
    case 'progress':
      return update(action.key, (item) => ({ ...item, progress: action.progress }));
    case 'sent':
      return update(action.key, (item) => ({ ...item, progress: 1, sent: true }));
    case 'uploaded': {
      // The same bytes under another name, or a file the member published before (the server
      // says so), would make a second document of one file. Of two copies in the batch the one
      // picked later is marked, whichever finished first: a later copy only uploaded (not yet
      // being published) gives way to this one.
      const copies = action.hash
        ? items.filter(
            (other) => other.key !== action.key && other.hash === action.hash && HOLDS_CONTENT.includes(other.phase),
          )
        : [];
      const twin = copies.find((other) => other.key < action.key || other.phase !== 'uploaded');
      const reason =
        action.publishedAs !== undefined
          ? publishedAs(action.publishedAs.title)
          : twin
            ? sameContentAs(twin.file.name)
            : undefined;
      const self = items.find((item) => item.key === action.key);
      // The row that steps aside hands what the member typed in it to the row that stays, where
      // that one holds only what it was given (the title from its file name, no description).
      const stepsAside = reason ? undefined : copies.find((other) => other.phase === 'uploaded');
      return items.map((item) => {
        if (item.key === action.key)
          return {
            ...(stepsAside ? withTypedDetails(item, stepsAside) : item),
            phase: reason ? 'duplicate' : 'uploaded',
            progress: 1,
            attachmentId: action.attachmentId,
            hash: action.hash,
            publishedAs: action.publishedAs,
            reason,
          };
        if (self && twin?.key === item.key && (twin.phase === 'uploaded' || twin.phase === 'publish-failed'))
          return withTypedDetails(item, self);
        return !reason && self && copies.includes(item)
          ? { ...item, phase: 'duplicate', reason: sameContentAs(self.file.name) }
          : item;
      });
    }
    case 'failed':
      return update(action.key, (item) => ({
        ...item,
        phase: 'failed',
        reason: action.reason,
        retryable: action.retryable,
      }));
    case 'retry':
      return update(action.key, (item) =>
        item.phase === 'failed'
          ? { ...item, phase: 'waiting', progress: 0, reason: undefined, retryable: false }
          : item,
      );
    case 'edit':
      return update(action.key, (item) => {
        const errors = { ...item.errors };
        for (const field of Object.keys(action.patch))
          delete errors[(field === 'categoryId' ? 'category' : field) as DetailField];
        return { ...item, ...action.patch, errors };
      });
    case 'apply-to-all':
      return items.map((item) =>
        editable(item) ? (uploadQueue([item], { type: 'edit', key: item.key, patch: action.patch })[0] ?? item) : item,
      );
    case 'invalid':
      return update(action.key, (item) => ({ ...item, errors: action.errors }));
    case 'publishing':
      return update(action.key, (item) => ({ ...item, phase: 'publishing', reason: undefined }));
    case 'published':
      return update(action.key, (item) => ({ ...item, phase: 'published' }));
    case 'publish-failed':
      return update(action.key, (item) => ({
        ...item,
        phase: action.duplicate ? 'duplicate' : 'publish-failed',
        reason: action.reason,
      }));
  }
}
