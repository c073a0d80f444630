// The end of the free preview: how many pages remain and how to read them, as the settings
// allow (log in, become a VIP member, or download the document).
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import type { Document } from '../../../../shared/types/document';
import { useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import { DownloadButton } from './DownloadPanel';

export function PreviewEnd({ doc, shownPages }: { doc: Document; shownPages: number }) {
  const { loggedIn, user } = useSession();
  const settings = useSettings();
  // VIP members read every page when the vip settings say so; offered while VIP is on sale.
  const vipReadsOn = settings.vip?.enable === true && settings.vip.read_all_pages === true && !user?.is_vip;
  const { pathname, search } = useLocation();
  const remaining = (doc.pages ?? 0) - shownPages;
  return (
    <section className="app-preview-end" aria-labelledby="preview-end-title">
      <h2 id="preview-end-title" className="app-preview-end__title">
        免费预览已结束
      </h2>
      <p className="app-preview-end__text">
        可预览页数已用完，剩余 <strong>{remaining}</strong> 页未读。
      </p>
      <div className="app-preview-end__actions">
        {!loggedIn && (
          <Link className="app-preview-end__action" to={loginLocation(pathname + search)}>
            登录后继续阅读
          </Link>
        )}
        {vipReadsOn && (
          <Link className="app-preview-end__action app-preview-end__action--vip" to="/vip">
            开通VIP，阅读全文
          </Link>
        )}
        <DownloadButton doc={doc} label="下载全文阅读" vipBadge />
      </div>
    </section>
  );
}
