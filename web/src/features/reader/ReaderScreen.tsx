// `/library/{category}/{id}`: the document's title and facts, its pages (the free preview,
// or all of them for an entitled reader, then the end-of-preview notice), the conversion
// state when it has no pages yet, the comments under them, and beside it the download, the
// author, the actions and related documents. The page is titled after the document.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { DocumentStatus, TargetType } from '../../../../shared/constants';
import { formatBytes, formatDate } from '../../../../shared/format';
import type { Document } from '../../../../shared/types/document';
import { ApiError, errorMessage } from '../../api/client';
import { Breadcrumbs } from '../../kit/breadcrumbs/Breadcrumbs';
import { Avatar } from '../../ui/Avatar';
import { Skeleton } from '../../ui/semi';
import { EmptyState, ErrorState } from '../../ui/states';
import { AdSlot } from '../advertisement/AdSlot';
import { LazyCommentSection } from '../comment/LazyCommentSection';
import { documentQuery, fullAccessQuery } from '../document/api';
import { A4_PORTRAIT, deepestCategory, documentPath, freePages } from '../document/document-links';
import { FormatIcon } from '../document/FormatIcon';
import { KeywordLinks } from '../search/KeywordLinks';
import { useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import { conversionEndedWithoutPages, ConversionNotice } from './ConversionNotice';
import { DocumentActions } from './DocumentActions';
import { DocumentPages } from './DocumentPages';
import { DownloadBar, DownloadPanel } from './DownloadPanel';
import { PreviewEnd } from './PreviewEnd';
import { RatingStars } from './RatingStars';
import { RelatedDocuments } from './RelatedDocuments';
import { useCopyText } from './use-copy-text';
import './reader.css';

/** Documents strangers may not see take no comments (the server refuses them as well). */
const UNCOMMENTABLE: readonly number[] = [
  DocumentStatus.Disabled,
  DocumentStatus.PendingReview,
  DocumentStatus.ReviewRejected,
];

/**
 * Pages for the reader: everything it may read, and whether the preview ends before the last
 * page (`undefined` while the server is being asked, or when asking failed: then `retry`
 * asks again, and until then the free pages are shown).
 */
function useReadablePages(doc: Document): {
  shown: number;
  locked: boolean | undefined;
  failed: boolean;
  retry: () => void;
} {
  const { user } = useSession();
  const total = doc.pages ?? 0;
  const free = freePages(doc);
  const limited = doc.status === DocumentStatus.Converted && free < total;
  const access = useQuery({ ...fullAccessQuery(doc, user?.id ?? 0), enabled: limited });
  const retry = () => void access.refetch();
  if (!limited || access.data === true) return { shown: total, locked: false, failed: false, retry };
  if (access.data === false) return { shown: free, locked: true, failed: false, retry };
  return { shown: free, locked: undefined, failed: access.isError && !access.isFetching, retry };
}

/**
 * In place of the end of the preview when the server could not be asked whether this reader
 * may read on (no network, a server error): the free pages are all it can show for now, which
 * says so, names the page a link asked for, and asks again.
 */
function AccessUnknown({
  doc,
  shownPages,
  startPage,
  onRetry,
}: {
  doc: Document;
  shownPages: number;
  startPage: number;
  onRetry: () => void;
}) {
  const reason = '未能确认您能否阅读免费预览之后的页面，请稍后再试。';
  const linked = startPage > shownPages && startPage <= (doc.pages ?? 0);
  return (
    <div className="app-reader__access-unknown">
      <ErrorState
        message={
          linked ? `暂时无法打开第 ${startPage} 页：${reason}` : `第 ${shownPages + 1} 页起暂时无法显示：${reason}`
        }
        onRetry={onRetry}
      />
    </div>
  );
}

function Facts({ doc }: { doc: Document }) {
  const { display = {} } = useSettings();
  return (
    <p className="app-reader-head__facts">
      <FormatIcon ext={doc.ext} />
      {doc.pages ? <span>{doc.pages} 页</span> : null}
      {doc.size ? <span>{formatBytes(doc.size)}</span> : null}
      {doc.created_at && <span>上传于 {formatDate(doc.created_at, 'YYYY-MM-DD')}</span>}
      {display.show_document_view_count && <span>{doc.view_count ?? 0} 次浏览</span>}
      {display.show_document_download_count && <span>{doc.download_count ?? 0} 次下载</span>}
      {display.show_document_favorite_count && <span>{doc.favorite_count ?? 0} 人收藏</span>}
    </p>
  );
}

function AuthorCard({ doc }: { doc: Document }) {
  const author = doc.user;
  const name = author?.username || doc.username || '匿名用户';
  return (
    <section className="app-panel app-author" aria-labelledby="author-title">
      <h2 id="author-title" className="app-visually-hidden">
        上传者
      </h2>
      <div className="app-author__who">
        <Avatar src={author?.avatar} name={name} size="default" />
        <div>
          <p className="app-author__name">{name}</p>
          <p className="app-author__facts">文档 {author?.doc_count ?? 0} 篇</p>
        </div>
      </div>
      {author?.signature && <p className="app-author__signature">{author.signature}</p>}
    </section>
  );
}

function LoadingReader() {
  return (
    <div className="app-container app-reader-screen" aria-busy="true">
      <div className="app-reader-screen__main">
        <div className="app-panel">
          <Skeleton.Title style={{ width: '60%' }} />
          <Skeleton.Paragraph rows={1} />
        </div>
        <div className="app-reader__page app-reader__page--placeholder" style={{ aspectRatio: A4_PORTRAIT }} />
      </div>
    </div>
  );
}

export function ReaderScreen({ id, categoryId }: { id: number; categoryId: number }) {
  const navigate = useNavigate();
  const { search, hash } = useLocation();
  const document = useQuery(documentQuery(id));
  const doc = document.data;

  // Keep the address canonical: the document under its own deepest category, with the page and
  // the words the link asked for (`?page=14&wd=…`, an old link from a search engine), and the
  // reader where it opened (at that page), not scrolled back to the top as a move would be.
  const canonical = doc ? documentPath(doc) : undefined;
  useEffect(() => {
    if (canonical && !(doc?.category_id ?? []).includes(categoryId))
      void navigate(canonical + search + hash, { replace: true, preventScrollReset: true });
  }, [canonical, doc, categoryId, navigate, search, hash]);

  if (document.isPending) return <LoadingReader />;
  if (document.isError) {
    if (document.error instanceof ApiError && document.error.status === 404) {
      return (
        <div className="app-container app-panel">
          <EmptyState page title="文档不存在" description="该文档不存在、已被删除或暂不公开。">
            <Link to="/library">浏览其他文档</Link>
          </EmptyState>
        </div>
      );
    }
    return (
      <div className="app-container app-panel">
        <ErrorState message={errorMessage(document.error, '文档加载失败')} onRetry={() => void document.refetch()} />
      </div>
    );
  }
  return (
    <ReaderContent doc={document.data} path={canonical ?? `/library/${categoryId}/${id}`} categoryId={categoryId} />
  );
}

/**
 * Hidden documents with pages: the server answers them to their uploader and the admins only,
 * who read them in the reader (a reviewer reads what they review), told who else may not.
 */
const HIDDEN_NOTES: Partial<Record<number, string>> = {
  [DocumentStatus.PendingReview]: '文档正在审核中，目前仅上传者和管理员可以阅读，审核通过后公开。',
  [DocumentStatus.ReviewRejected]: '文档未通过审核，仅上传者和管理员可以阅读。',
  [DocumentStatus.Disabled]: '文档已被禁用，仅上传者和管理员可以阅读。',
};

/**
 * A document in the recycle bin: answered to its uploader (a message of 我的消息 still leads to it)
 * and the admins, who read it but cannot download it or comment on it (the server refuses both).
 */
const RECYCLED_NOTE = '文档已删除，在回收站中，仅上传者和管理员可以查看。';

function ReaderContent({ doc, path, categoryId }: { doc: Document; path: string; categoryId: number }) {
  const { shown, locked, failed, retry } = useReadablePages(doc);
  const recycled = Boolean(doc.deleted_at);
  const hiddenNote = recycled ? RECYCLED_NOTE : HIDDEN_NOTES[doc.status ?? DocumentStatus.Pending];
  const readable = (doc.status === DocumentStatus.Converted || hiddenNote !== undefined) && (doc.pages ?? 0) > 0;
  // Nothing to read, for good (until converted again): no comments on it either.
  const unconverted = conversionEndedWithoutPages(doc);
  const deepest = deepestCategory(doc) ?? categoryId;
  const [refusal, setRefusal] = useState<string>();
  const copyText = useCopyText();
  // `?page=14&wd=…`: a link to a page (copied text, a search hit) opens there with its words marked.
  const [search] = useSearchParams();
  const startPage = Math.max(1, Math.floor(Number(search.get('page')) || 1));
  const startWords = (search.get('wd') ?? '').trim().slice(0, 100);
  return (
    <div className="app-container app-reader-screen">
      <div className="app-reader-screen__main">
        <Breadcrumbs
          crumbs={[
            { label: '首页', to: '/' },
            { label: '文库资料', to: '/library' },
            ...(doc.category ?? []).map((category) => ({ label: category.title ?? '', to: `/library/${category.id}` })),
          ]}
        />
        <header className="app-panel app-reader-head">
          <h1 className="app-reader-head__title">{doc.title || '未命名文档'}</h1>
          <Facts doc={doc} />
          {/* Only what was read is rated: not a document converting, or that could not be converted. */}
          {readable && <RatingStars doc={doc} />}
          {doc.description && <p className="app-reader-head__description">{doc.description}</p>}
          <KeywordLinks keywords={doc.keywords} />
        </header>
        <AdSlot slot="document_top" />
        {readable && hiddenNote && (
          <p className="app-panel app-reader-hidden-note" role="status">
            {hiddenNote}
          </p>
        )}
        {readable ? (
          <DocumentPages
            key={doc.id}
            doc={doc}
            shownPages={shown}
            locked={locked}
            accessFailed={failed}
            copyText={copyText}
            startPage={startPage}
            startWords={startWords}
            after={
              failed ? (
                <AccessUnknown doc={doc} shownPages={shown} startPage={startPage} onRetry={retry} />
              ) : locked === undefined ? null : locked ? (
                <PreviewEnd doc={doc} shownPages={shown} />
              ) : (
                <p className="app-reader__end">— 全文完 —</p>
              )
            }
          />
        ) : (
          <div className="app-panel">
            <ConversionNotice doc={doc} />
          </div>
        )}
        <AdSlot slot="document_bottom" />
        {doc.id && !recycled && !unconverted && !UNCOMMENTABLE.includes(doc.status ?? 0) && (
          <div className="app-panel">
            <LazyCommentSection type={TargetType.Document} targetId={doc.id} />
          </div>
        )}
      </div>
      <aside className="app-reader-screen__side" aria-label="文档信息">
        {!recycled && <DownloadPanel doc={doc} refusal={refusal} onRefused={setRefusal} />}
        <AuthorCard doc={doc} />
        <section className="app-panel" aria-label="文档操作">
          <DocumentActions doc={doc} path={path} />
        </section>
        {/* The server names related documents of a public document only (404 for a hidden one). */}
        {!hiddenNote && <RelatedDocuments id={doc.id ?? 0} categoryId={deepest} />}
      </aside>
      {!recycled && <DownloadBar doc={doc} onRefused={setRefusal} />}
    </div>
  );
}
