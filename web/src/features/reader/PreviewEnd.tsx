// The end of the free preview: how many pages remain and what opens them (backend
// access.ts): past the preview read the owner, the document admins, VIP members where the vip settings
// let them, and buyers (a paid download). So a visitor is offered the login to download
// (buy) it, a member the download at what it costs them, both VIP while it is on sale and
// lets its members read every page.
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { loginReasonState } from '../auth/login-reason';
import type { Document } from '../../../../shared/types/document';
import { useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import { DownloadButton } from './DownloadPanel';

/** Whether VIP is on sale to this reader and lets its members read every page. */
export function useVipReadsAll(): boolean {
  const { user } = useSession();
  const settings = useSettings();
  return settings.vip?.enable === true && settings.vip.read_all_pages === true && !user?.is_vip;
}

const pastPreview = (vipReads: boolean) => `超出免费预览范围，下载文档${vipReads ? '或开通 VIP ' : ''}后可阅读`;

/** What a reader sent to a page past the free preview (a site-search hit, a link, 跳转) is told. */
export function pastPreviewNote(page: number, vipReads: boolean): string {
  return `第 ${page} 页${pastPreview(vipReads)}`;
}

/** What the thumbnails say under the last free page: the pages past it, which they leave out. */
export function closedPagesNote(first: number, last: number, vipReads: boolean): string {
  return `${first === last ? `第 ${first} 页` : `第 ${first} 至 ${last} 页`}${pastPreview(vipReads)}`;
}

export function PreviewEnd({ doc, shownPages }: { doc: Document; shownPages: number }) {
  const { loggedIn } = useSession();
  const vipReads = useVipReadsAll();
  const { pathname, search } = useLocation();
  const remaining = (doc.pages ?? 0) - shownPages;
  // Back from the login where the visitor stopped: the last free page (`?page=`), not the first;
  // a page past the preview that the address named (a search hit) stays the one to open.
  const back = new URLSearchParams(search);
  if (!(Number(back.get('page')) > shownPages)) back.set('page', String(shownPages));
  return (
    <section className="app-preview-end" aria-labelledby="preview-end-title">
      <h2 id="preview-end-title" className="app-preview-end__title">
        免费预览已结束
      </h2>
      <p className="app-preview-end__text">
        可预览页数已用完，剩余 <strong>{remaining}</strong> 页未读。
      </p>
      <div className="app-preview-end__actions">
        {vipReads && (
          <Link className="app-preview-end__action app-preview-end__action--vip" to="/vip">
            开通 VIP 阅读全文
          </Link>
        )}
        {loggedIn ? (
          <DownloadButton doc={doc} what="下载全文" vipBadge />
        ) : (
          <Link
            className="app-preview-end__action"
            to={loginLocation(`${pathname}?${back.toString()}`)}
            state={loginReasonState('download')}
          >
            登录后下载全文
          </Link>
        )}
      </div>
    </section>
  );
}
