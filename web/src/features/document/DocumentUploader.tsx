// Uploading documents (the member's `/upload` and the admin's batch upload): pick or drop
// several files; each is checked, then uploaded with its own progress bar; each uploaded file
// gets its title (from the file name), category, price and description, with 统一设置 for the
// whole batch; 发布 creates the documents, whose conversion status then updates live.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useRef, useState, type DragEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link } from 'react-router-dom';
import {
  DOCUMENT_EXTENSIONS,
  DocumentStatus,
  documentStatusOptions,
  extensionGroups,
  optionLabel,
  uploadLimitBytes,
} from '../../../../shared/constants';
import { nothingAnswered, type ApiFailure } from '../../../../shared/api-failure';
import { errorMessage } from '../../api/client';
import { formatBytes } from '../../../../shared/format';
import type { Settings } from '../../../../shared/types/config';
import type { Document } from '../../../../shared/types/document';
import { cleanName } from '../../../../shared/validation';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { LeaveGuard } from '../../kit/routing/LeaveGuard';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { Input } from '../../ui/semi-extra';
import { IconUpload } from '../../ui/icons';
import { CategorySelect } from '../category/CategorySelect';
import { categoryTrail, useDocumentCategories, type CategoryNode } from '../category/category-tree';
import { createDocuments, recentUploadsQuery, uploadRewardLeftQuery } from './api';
import {
  awaitsReviewConversion,
  conversionFailure,
  conversionFailureLine,
  conversionUnderway,
  failedConversionAdvice,
} from './conversion';
import { ConversionProgress } from './ConversionProgress';
import { documentPath, documentPathById } from './document-links';
import { creditName } from './DocumentPrice';
import { useSettings } from '../settings/use-settings';
import { useSession } from '../session/use-session';
import { EmptyState, ErrorState } from '../../ui/states';
import { documentFormatsQuery, uploadDocumentFile } from '../upload/api';
import {
  checkDetails,
  checkPrice,
  DESCRIPTION_MAX,
  newItems,
  publishedAs,
  TITLE_MAX,
  type PublishedCopy,
  uploadQueue,
  type DetailsPatch,
  type UploadAction,
  type UploadItem,
} from './upload-queue';
import '../../ui/form.css';
import './upload.css';

/** Files sent at the same time; the others wait their turn. */
const PARALLEL_UPLOADS = 2;

const PHASE_TEXT: Record<UploadItem['phase'], string> = {
  refused: '无法上传',
  waiting: '等待上传',
  uploading: '上传中',
  failed: '上传失败',
  uploaded: '已上传，待发布',
  duplicate: '内容重复',
  publishing: '发布中',
  published: '已发布',
  'publish-failed': '发布失败',
};

/** 选择文件, where the keyboard goes back when the last row is removed. */
const CHOOSE_FILES_ID = 'upload-choose-files';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className="app-field__error" role="alert">
      {message}
    </span>
  );
}

/**
 * publishedAs's line with the title a link: to the document's page once visitors can read it,
 * else to 我的文档, where its state is. In a new tab: the batch on this screen stays as it is.
 */
function PublishedCopyLine({ copy }: { copy: PublishedCopy }) {
  const [before, after] = publishedAs('\0').split('\0');
  const to = copy.status === DocumentStatus.Converted ? documentPathById(copy.id) : '/member/document';
  return (
    <>
      {before}
      <Link to={to} target="_blank" rel="noopener">
        {copy.title}
      </Link>
      {after}
    </>
  );
}

function UploadRow({
  item,
  tree,
  credits,
  dispatch,
  onRetry,
  onRemove,
}: {
  item: UploadItem;
  tree: readonly CategoryNode[];
  /** The site's credit name: the unit of the price. */
  credits: string;
  dispatch: (action: UploadAction) => void;
  onRetry: () => void;
  onRemove: () => void;
}) {
  const id = `upload-${item.key}`;
  const describable =
    item.phase !== 'refused' &&
    item.phase !== 'duplicate' &&
    item.phase !== 'failed' &&
    item.phase !== 'published' &&
    item.phase !== 'publishing';
  const edit = (patch: DetailsPatch) => dispatch({ type: 'edit', key: item.key, patch });
  return (
    <li className={`app-upload__item app-upload__item--${item.phase}`} aria-label={item.file.name} data-key={item.key}>
      <div className="app-upload__file">
        <span className="app-upload__name">{item.file.name}</span>
        <span className="app-upload__size">{formatBytes(item.file.size)}</span>
        <span className="app-upload__phase">
          {/* A file the server refused (its content belies the extension, a file marked illegal) is refused as those
              checked before sending are: 上传失败 would have it sent again, which only fails again. */}
          {item.phase === 'failed' && !item.retryable
            ? PHASE_TEXT.refused
            : item.phase === 'uploading' && item.sent
              ? '正在处理'
              : PHASE_TEXT[item.phase]}
        </span>
        {item.phase === 'failed' && item.retryable && (
          <Button size="small" theme="borderless" onClick={onRetry} aria-label={`重试 ${item.file.name}`}>
            重试
          </Button>
        )}
        {item.phase !== 'publishing' && item.phase !== 'published' && (
          <Button
            size="small"
            theme="borderless"
            type="danger"
            onClick={onRemove}
            aria-label={`移除 ${item.file.name}`}
          >
            移除
          </Button>
        )}
      </div>
      {(item.phase === 'uploading' || item.phase === 'waiting') && (
        <progress
          className="app-upload__progress"
          max={100}
          value={Math.round(item.progress * 100)}
          aria-label={`${item.file.name} 上传进度`}
        />
      )}
      {item.phase === 'uploading' && item.sent && (
        <span className="app-upload__percent" role="status">
          文件已全部上传，服务器正在检查和保存，请稍候
        </span>
      )}
      {item.phase === 'uploading' && !item.sent && (
        <span className="app-upload__percent">
          已上传 {formatBytes(Math.round(item.progress * item.file.size))} / {formatBytes(item.file.size)}（
          {Math.round(item.progress * 100)}%）
        </span>
      )}
      {item.reason && (
        <p className="app-upload__reason" role="alert">
          {item.publishedAs ? <PublishedCopyLine copy={item.publishedAs} /> : item.reason}
        </p>
      )}
      {describable && (
        <div className="app-upload__details">
          <div className="app-upload__field app-upload__field--wide">
            <label htmlFor={`${id}-title`}>标题</label>
            <Input
              id={`${id}-title`}
              value={item.title}
              maxLength={TITLE_MAX}
              onChange={(value: string) => edit({ title: value })}
              validateStatus={item.errors.title ? 'error' : 'default'}
              aria-invalid={item.errors.title ? true : undefined}
              aria-describedby={item.errors.title ? `${id}-title-error` : undefined}
            />
            <FieldError id={`${id}-title-error`} message={item.errors.title} />
          </div>
          <div className="app-upload__field">
            <label htmlFor={`${id}-category`}>分类</label>
            <CategorySelect
              id={`${id}-category`}
              tree={tree}
              value={item.categoryId}
              onChange={(categoryId) => edit({ categoryId })}
              invalid={Boolean(item.errors.category)}
              describedBy={item.errors.category ? `${id}-category-error` : undefined}
            />
            <FieldError id={`${id}-category-error`} message={item.errors.category} />
          </div>
          <div className="app-upload__field">
            <label htmlFor={`${id}-price`}>价格</label>
            <Input
              id={`${id}-price`}
              value={item.price}
              inputMode="numeric"
              suffix={
                <span id={`${id}-price-unit`} className="app-upload__unit">
                  {credits}
                </span>
              }
              onChange={(value: string) => edit({ price: value })}
              validateStatus={item.errors.price ? 'error' : 'default'}
              aria-invalid={item.errors.price ? true : undefined}
              aria-describedby={`${id}-price-unit${item.errors.price ? ` ${id}-price-error` : ''}`}
            />
            <FieldError id={`${id}-price-error`} message={item.errors.price} />
          </div>
          <div className="app-upload__field app-upload__field--wide">
            <label htmlFor={`${id}-description`}>简介</label>
            <textarea
              id={`${id}-description`}
              className="app-textarea"
              rows={2}
              maxLength={DESCRIPTION_MAX}
              value={item.description}
              placeholder="选填，留空时使用文档正文的开头"
              onChange={(event) => edit({ description: event.target.value })}
              aria-invalid={item.errors.description ? true : undefined}
              aria-describedby={item.errors.description ? `${id}-description-error` : undefined}
            />
            <FieldError id={`${id}-description-error`} message={item.errors.description} />
          </div>
        </div>
      )}
    </li>
  );
}

/**
 * A document its uploader can read now: converted, or in review with its pages (the reader
 * shows them to the uploader and the admins until the review ends).
 */
const readable = (doc: Document) =>
  doc.status === DocumentStatus.Converted ||
  (doc.status === DocumentStatus.PendingReview && (doc.pages ?? 0) > 0 && conversionFailure(doc) === undefined);

/** The documents just published, matched by title among the member's newest, with their live status. */
function PublishedDocuments({ userId, titles }: { userId: number; titles: readonly string[] }) {
  const recent = useQuery(recentUploadsQuery(userId, Math.max(10, titles.length * 2)));
  const documents = recent.data ?? [];
  const matched: Document[] = [];
  for (const title of titles) {
    const doc = documents.find((d) => d.title === title && !matched.includes(d));
    if (doc) matched.push(doc);
  }
  return (
    <section className="app-panel app-upload__published" aria-labelledby="upload-published-title">
      <h2 id="upload-published-title" className="app-panel__title" tabIndex={-1}>
        转换状态
      </h2>
      {recent.isPending ? (
        <p>正在读取文档状态…</p>
      ) : recent.data === undefined ? (
        // Not read (the connection lost, the server failing): the documents are published all
        // the same; without this, 其余文档正在创建中… would stand for good.
        <ErrorState message={errorMessage(recent.error, '文档状态加载失败')} onRetry={() => void recent.refetch()} />
      ) : (
        <ul className="app-upload__statuses">
          {matched.map((doc) => {
            const path = documentPath(doc);
            const failure = conversionFailureLine(doc);
            return (
              <li key={doc.id} data-status={doc.status}>
                <span className="app-upload__name">{doc.title}</span>
                <span className={`app-upload__status app-upload__status--${doc.status ?? 0}`}>
                  {optionLabel(documentStatusOptions, doc.status ?? DocumentStatus.Pending, '未知')}
                </span>
                {conversionUnderway(doc) && <ConversionProgress doc={doc} reviewNote="审核通过后公开" />}
                {failure !== undefined ? (
                  <span className="app-upload__reason">
                    {failure}。{failedConversionAdvice(doc)}
                    <Link to="/member/document">前往我的文档</Link>
                  </span>
                ) : (
                  doc.status === DocumentStatus.PendingReview &&
                  !awaitsReviewConversion(doc) && <span className="app-upload__note">审核通过后公开</span>
                )}
                {readable(doc) && path && <Link to={path}>阅读</Link>}
              </li>
            );
          })}
          {matched.length < titles.length && <li>其余文档正在创建中…</li>}
        </ul>
      )}
    </section>
  );
}

/** The kinds of the formats offered (PDF、Word、文本、EPUB…), and the extensions themselves for Kindle books. */
function formatNames(formats: readonly string[]): string {
  const names = extensionGroups
    .filter((group) => group.extensions.some((ext) => formats.includes(ext)))
    .map((group) =>
      group.key === 'mobi'
        ? group.extensions
            .filter((ext) => formats.includes(ext))
            .map((ext) => ext.toUpperCase())
            .join('、')
        : group.label,
    );
  return names.join('、');
}

/**
 * What publishing pays, said before any file is chosen: GetSettings' `upload_document_credits` for
 * each of the day's first `upload_document_limit` documents, paid at 发布 (before any review).
 * Nothing when it pays nothing.
 */
function uploadRewardNote(settings: Settings): string | undefined {
  const credits = settings.system?.upload_document_credits ?? 0;
  const perDay = settings.system?.upload_document_limit ?? 0;
  if (credits <= 0 || perDay <= 0) return undefined;
  const documents = perDay === 1 ? '每天发布的第一篇文档' : `每天发布的前 ${perDay} 篇文档每篇`;
  return `${documents}奖励 ${credits} ${creditName(settings)}，发布后立即到账。`;
}

/**
 * How many of today's rewards the member has left (the server's count, as 发布 pays them), under
 * the rule of `uploadRewardNote`; asked again after each 发布 (createDocuments marks it stale).
 */
function UploadRewardLeft({ userId }: { userId: number }) {
  const left = useQuery(uploadRewardLeftQuery(userId));
  if (left.isPending)
    return (
      <p className="app-upload__hint" role="status" aria-busy="true">
        正在查询今日剩余的奖励次数…
      </p>
    );
  if (left.isError)
    return (
      <p className="app-upload__hint" role="alert">
        今日剩余的奖励次数暂时无法查询（{errorMessage(left.error, '查询失败')}）
        <Button size="small" theme="borderless" loading={left.isFetching} onClick={() => void left.refetch()}>
          重试
        </Button>
      </p>
    );
  return (
    <p className="app-upload__hint" role="status">
      {left.data > 0 ? `今日还可获得 ${left.data} 次上传奖励。` : '今日的上传奖励已用完，明天发布的文档可再获得奖励。'}
    </p>
  );
}

/**
 * What a failed upload says, and whether sending it again may help: when nothing answered (the
 * connection cut, the site restarting) or the server was unavailable (its file storage or
 * database away: 503), not when it refused the file.
 */
function uploadFailure(failure: ApiFailure): { reason: string; retryable: boolean } {
  if (nothingAnswered(failure)) return { reason: '上传中断：与网站的连接断开了，请检查网络后重试', retryable: true };
  const retryable = failure.status >= 500 || failure.status === 408 || failure.status === 429;
  return { reason: failure.data.message || '上传失败，请稍后再试', retryable };
}

/** What the upload says while the site has no document category, and who can add one. */
function NoCategory() {
  const canAdd = useSession().allowPages.includes('/admin/document/category');
  return (
    <section className="app-panel">
      <EmptyState
        title="还没有文档分类"
        description={
          canAdd ? '每篇文档都要选择分类，请先添加文档分类再上传。' : '管理员添加文档分类后才能上传文档，请稍后再来。'
        }
      >
        {canAdd && <Link to="/admin/document/category">添加文档分类</Link>}
      </EmptyState>
    </section>
  );
}

export function DocumentUploader({ userId }: { userId: number }) {
  const settings = useSettings();
  const credits = creditName(settings);
  const formats = useQuery(documentFormatsQuery());
  const tree = useDocumentCategories();
  const [items, dispatch] = useReducer(uploadQueue, []);
  // 统一设置: what it gave the rows (and gives the files picked later), and its price as typed,
  // which reaches the rows only once it is a price they accept; until then a wrong one is marked
  // there. An emptied one (a price being typed again) sets nothing and is not marked: the rows
  // keep theirs, which their own checks cover.
  const [batch, setBatch] = useState<{ categoryId?: number; price: string }>({ price: '0' });
  const [batchPrice, setBatchPrice] = useState(batch.price);
  const batchPriceError = batchPrice.trim() === '' ? undefined : checkPrice(batchPrice);
  const [published, setPublished] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // A 发布 its checks refuse takes the keyboard to the first wrong field.
  const { ref: list, focusFirstInvalid } = useFirstInvalidFocus<HTMLElement>();
  const started = useRef(new Set<number>());
  // The uploads on their way, by row: a row removed, or the screen left, stops its upload
  // instead of sending the rest of the file for nothing (up to the size limit, on a phone's data).
  const sending = useRef(new Map<number, AbortController>());
  useEffect(() => {
    const uploads = sending.current;
    return () => uploads.forEach((upload) => upload.abort());
  }, []);

  // Keep PARALLEL_UPLOADS uploads going while files wait.
  useEffect(() => {
    const running = items.filter((item) => item.phase === 'uploading').length;
    const next = items
      .filter((item) => item.phase === 'waiting' && !started.current.has(item.key))
      .slice(0, Math.max(0, PARALLEL_UPLOADS - running));
    for (const item of next) {
      started.current.add(item.key);
      dispatch({ type: 'start', key: item.key });
      const upload = new AbortController();
      sending.current.set(item.key, upload);
      void uploadDocumentFile(item.file, {
        onProgress: (loaded, total) =>
          dispatch({ type: 'progress', key: item.key, progress: total > 0 ? loaded / total : 0 }),
        onSent: () => dispatch({ type: 'sent', key: item.key }),
        signal: upload.signal,
      }).then((result) => {
        sending.current.delete(item.key);
        if (upload.signal.aborted) return;
        const attachmentId = result.ok ? result.data.data?.id : undefined;
        const hash = result.ok ? result.data.data?.hash : undefined;
        const copy = result.ok ? result.data.data?.document : undefined;
        const publishedAs =
          copy?.id && copy.title !== undefined ? { id: copy.id, title: copy.title, status: copy.status } : undefined;
        if (attachmentId) dispatch({ type: 'uploaded', key: item.key, attachmentId, hash, publishedAs });
        else if (result.ok)
          dispatch({ type: 'failed', key: item.key, reason: '上传失败，请稍后再试', retryable: true });
        else dispatch({ type: 'failed', key: item.key, ...uploadFailure(result) });
      });
    }
  }, [items]);

  const addFiles = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    dispatch({ type: 'add', items: newItems([...files], items, settings.security, batch, formats.data) });
  };

  const publish = useMutation({
    mutationFn: async (ready: UploadItem[], context) => {
      const titles: string[] = [];
      for (const item of ready) {
        dispatch({ type: 'publishing', key: item.key });
        const categories = categoryTrail(tree, item.categoryId ?? 0).map((node) => node.id ?? 0);
        // The title as the server stores it (a tab pasted from a table becomes a space): 转换状态
        // finds the new document by it.
        const title = cleanName(item.title);
        const result = await createDocuments(
          {
            category_id: categories,
            document: [
              {
                title,
                attachment_id: item.attachmentId,
                price: Number(item.price.trim()),
                description: item.description.trim(),
              },
            ],
          },
          context,
        );
        if (result.ok) {
          dispatch({ type: 'published', key: item.key });
          titles.push(title);
        } else {
          // 409 (AlreadyExists): the file is a document already, as the upload's check marks it.
          const duplicate = result.status === 409;
          dispatch({
            type: 'publish-failed',
            key: item.key,
            reason: result.data.message || (duplicate ? '文档已存在，不会重复发布' : '发布失败'),
            duplicate,
          });
        }
      }
      return titles;
    },
    onSuccess: (titles) => {
      if (titles.length === 0) return;
      setPublished((previous) => [...previous, ...titles]);
      toast.success('发布成功', `已发布 ${titles.length} 篇文档，转换状态见下方`);
    },
  });

  const submit = () => {
    const candidates = items.filter((item) => item.phase === 'uploaded' || item.phase === 'publish-failed');
    const ready: UploadItem[] = [];
    for (const item of candidates) {
      const errors = checkDetails(item);
      if (errors) dispatch({ type: 'invalid', key: item.key, errors });
      else ready.push(item);
    }
    if (ready.length > 0) publish.mutate(ready);
    if (ready.length < candidates.length) focusFirstInvalid();
  };

  // A row removed goes with the focus: the keyboard goes on at the next row (or the one before),
  // or back to 选择文件 when none is left.
  const remove = (key: number) => {
    const index = items.findIndex((item) => item.key === key);
    const neighbour = items[index + 1] ?? items[index - 1];
    sending.current.get(key)?.abort();
    flushSync(() => dispatch({ type: 'remove', key }));
    const row = neighbour && list.current?.querySelector(`[data-key="${neighbour.key}"]`);
    (
      row?.querySelector<HTMLElement>('button, input, select, textarea') ?? document.getElementById(CHOOSE_FILES_ID)
    )?.focus();
  };

  // 重试 goes with the failure it offered to mend: the keyboard stays on the row, at its 移除.
  const retry = (key: number) => {
    started.current.delete(key);
    flushSync(() => dispatch({ type: 'retry', key }));
    list.current
      ?.querySelector(`[data-key="${key}"]`)
      ?.querySelector<HTMLElement>('button, input, select, textarea')
      ?.focus();
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  const publishable = items.filter((item) => item.phase === 'uploaded' || item.phase === 'publish-failed').length;
  // All published, 发布 turns disabled under the keyboard (dropping the focus on <body>): it goes
  // to 转换状态, which the publishing just showed or added to.
  useEffect(() => {
    const focused = document.activeElement;
    const lost = focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled);
    if (published.length > 0 && publishable === 0 && lost) document.getElementById('upload-published-title')?.focus();
  }, [published.length, publishable]);
  // Files on their way, waiting for 发布 or cut off (重试 would send them): leaving the screen drops them, to be
  // uploaded again. A file the server refused has nothing to lose.
  const unpublished =
    publishable +
    items.filter(
      (item) => item.phase === 'waiting' || item.phase === 'uploading' || (item.phase === 'failed' && item.retryable),
    ).length;
  const limit = formatBytes(uploadLimitBytes(settings.security?.max_document_size));
  const reward = uploadRewardNote(settings);
  const offered = formats.data ?? DOCUMENT_EXTENSIONS;
  // Every document needs a category: on a site without one, a file picked would be sent for
  // nothing, its 发布 refused for want of a category that cannot be chosen.
  if (tree.length === 0) return <NoCategory />;
  return (
    <div className="app-upload">
      <section className="app-panel">
        <div
          className={`app-upload__drop${dragging ? ' app-upload__drop--over' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <IconUpload size="extra-large" />
          {/* Hidden on a touch screen (upload.css), where nothing can be dragged: 选择文件 alone. */}
          <p className="app-upload__drag">将文件拖到这里，或</p>
          <Button id={CHOOSE_FILES_ID} type="primary" theme="solid" onClick={() => input.current?.click()}>
            选择文件
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="document-files"
            accept={offered.map((ext) => `.${ext}`).join(',')}
            onChange={(event) => {
              addFiles(event.target.files);
              event.target.value = '';
            }}
          />
          <p className="app-upload__hint">
            支持 {formatNames(offered)} 格式，可一次选择多个文件，单个文件不超过 {limit}。
          </p>
          {reward && <p className="app-upload__hint">{reward}</p>}
          {reward && <UploadRewardLeft userId={userId} />}
        </div>
      </section>
      {items.length > 0 && (
        <section ref={list} className="app-panel" aria-labelledby="upload-files-title">
          <h2 id="upload-files-title" className="app-panel__title">
            文件列表
          </h2>
          <div className="app-upload__batch" role="group" aria-label="统一设置">
            <span>统一设置：</span>
            <CategorySelect
              id="upload-batch-category"
              label="统一设置分类"
              tree={tree}
              value={batch.categoryId}
              onChange={(categoryId) => {
                setBatch((b) => ({ ...b, categoryId }));
                dispatch({ type: 'apply-to-all', patch: { categoryId } });
              }}
            />
            <span className="app-upload__batch-price">
              <label htmlFor="upload-batch-price">价格</label>
              <Input
                id="upload-batch-price"
                value={batchPrice}
                inputMode="numeric"
                suffix={
                  <span id="upload-batch-price-unit" className="app-upload__unit">
                    {credits}
                  </span>
                }
                validateStatus={batchPriceError ? 'error' : 'default'}
                aria-invalid={batchPriceError ? true : undefined}
                aria-describedby={`upload-batch-price-unit${batchPriceError ? ' upload-batch-price-error' : ''}`}
                onChange={(price: string) => {
                  setBatchPrice(price);
                  if (checkPrice(price)) return;
                  setBatch((b) => ({ ...b, price }));
                  dispatch({ type: 'apply-to-all', patch: { price } });
                }}
              />
              <FieldError id="upload-batch-price-error" message={batchPriceError} />
            </span>
          </div>
          <ul className="app-upload__items">
            {items.map((item) => (
              <UploadRow
                key={item.key}
                item={item}
                tree={tree}
                credits={credits}
                dispatch={dispatch}
                onRetry={() => retry(item.key)}
                onRemove={() => remove(item.key)}
              />
            ))}
          </ul>
          <div className="app-form-actions">
            <Button
              type="primary"
              theme="solid"
              disabled={publishable === 0}
              loading={publish.isPending}
              onClick={submit}
            >
              发布{publishable > 0 ? `（${publishable}）` : ''}
            </Button>
          </div>
        </section>
      )}
      {published.length > 0 && <PublishedDocuments userId={userId} titles={published} />}
      <LeaveGuard
        when={unpublished > 0 && !publish.isPending}
        question={`还有 ${unpublished} 个文件没有发布，离开后需要重新上传。确定离开吗？`}
      />
    </div>
  );
}
