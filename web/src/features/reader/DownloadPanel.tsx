// Downloading a document: the price ("免费", its credits, "VIP 免费"), the button saying what
// the download costs this reader (已购买 once they paid for it; in the bar, beside it), the member's shortfall when
// their credits are below the price, and the server's reason in Chinese when it refuses
// (daily limits, credits, a punishment: the server stays the judge).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import type { Settings } from '../../../../shared/types/config';
import type { Document } from '../../../../shared/types/document';
import type { User } from '../../../../shared/types/user';
import { errorMessage, unwrap } from '../../api/client';
import { useOneAtATime } from '../../api/one-at-a-time';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { useRootHeight } from '../../kit/visibility/use-root-height';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { IconDownload } from '../../ui/icons';
import { downloadDocument, purchaseQuery } from '../document/api';
import { creditName, DocumentPrice, vipDownloadsFree } from '../document/DocumentPrice';
import { FormatIcon } from '../document/FormatIcon';
import { refreshSessionUser } from '../session/session-actions';
import { useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import { isTyping } from './typing';

/** Where the browser fetches the file; a page of our own origin answers with the file itself. */
function startDownload(url: string): void {
  window.location.assign(url);
}

/**
 * What downloading `doc` costs this reader (download rules: docs/api.md §8): nothing for a
 * free document or their own, nothing once they bought it (within
 * `download.free_download_duration`, as the server says: `bought`), nothing for a VIP member
 * where VIP downloads are free (a VIP period keeps it while VIP is off sale), else its price.
 */
export function downloadCost(
  doc: Document,
  settings: Settings,
  user: User | null | undefined,
  bought = false,
): 'free' | 'bought' | 'vip' | 'price' {
  if (!(doc.price ?? 0) || (user?.id !== undefined && doc.user_id === user.id)) return 'free';
  if (bought) return 'bought';
  return user?.is_vip && settings.vip?.free_download === true ? 'vip' : 'price';
}

/** Whether the member bought this priced document of someone else's; asked of the server only then. */
function useBought(doc: Document, user: User | null | undefined): boolean {
  const asks = user?.id !== undefined && (doc.price ?? 0) > 0 && doc.user_id !== user.id;
  const purchase = useQuery({ ...purchaseQuery(doc.id ?? 0, user?.id ?? 0), enabled: asks });
  return asks && purchase.data === true;
}

/**
 * What a member whose credits are below the price is told instead of a confirmation that could
 * only fail: the price, their credits, the shortfall, where credits are earned, and VIP where
 * its members download for free.
 */
function CreditShortfall({
  price,
  balance,
  credits,
  vip,
  onClose,
}: {
  price: number;
  balance: number;
  credits: string;
  vip: boolean;
  onClose: () => void;
}) {
  return (
    <span className="app-download__short" role="group" aria-label={`${credits}不足`}>
      <span className="app-download__short-text">
        下载需 {price} {credits}，您现有 {balance} {credits}，还差 {price - balance} {credits}。
      </span>
      <span className="app-download__short-text">
        可在<Link to="/member">个人中心</Link>每日签到，或<Link to="/upload">上传文档</Link>获得{credits}。
      </span>
      {vip && <Link to="/vip">开通 VIP，免费下载</Link>}
      <Button size="small" onClick={onClose}>
        知道了
      </Button>
    </span>
  );
}

/**
 * The download button, named after what the download costs this reader: 免费`what`,
 * VIP 免费`what`, or `what`（5 魔豆）; `label` names it instead (the bar's 下载, beside
 * CostFact). A member's paid download asks first (需 5 魔豆，确定下载？), or, short of credits,
 * says by how much (CreditShortfall). `vipBadge`: marked VIP 免费 where VIP members download it
 * for free (where no price beside says so already).
 */
export function DownloadButton({
  doc,
  what = '下载',
  label,
  vipBadge = false,
  onRefused,
}: {
  doc: Document;
  what?: string;
  label?: string;
  vipBadge?: boolean;
  /** Called with the server's reason when the download is refused. */
  onRefused?: (reason: string) => void;
}) {
  const settings = useSettings();
  const { user } = useSession();
  const [refusal, setRefusal] = useState<string>();
  const [shortShown, setShortShown] = useState(false);
  const [checking, setChecking] = useState(false);
  const cost = downloadCost(doc, settings, user, useBought(doc, user));
  const credits = creditName(settings);
  const priceValue = doc.price ?? 0;
  const price = `${priceValue} ${credits}`;
  // Credits are spent on a second, deliberate click (a visitor's click only brings the
  // server's reason: there is nothing to spend yet).
  const confirmFirst = cost === 'price' && Boolean(user);
  // MOREDOC omits a zero count.
  const balance = user?.credit_count ?? 0;
  const download = useMutation({
    // The most it may cost, as the button says: a price raised since is refused, not paid.
    mutationFn: async (_: void, context) =>
      unwrap(await downloadDocument(doc.id ?? 0, cost === 'price' ? priceValue : 0, context)),
    onSuccess: (reply) => {
      setRefusal(undefined);
      if (!reply.url) return;
      toast.success('开始下载', doc.title);
      startDownload(reply.url);
    },
    onError: (error) => {
      const reason = errorMessage(error, '下载失败，请稍后再试');
      setRefusal(reason);
      onRefused?.(reason);
    },
    // Credits moved (or the server found too few): the next price check needs the new balance.
    onSettled: () => {
      if (confirmFirst) void refreshSessionUser();
    },
  });
  // One download at a time: a double click would record (and count against the daily limits) a
  // second download.
  const downloadOnce = useOneAtATime(download);
  const start = () => downloadOnce();
  /**
   * The confirmation, unless the member's credits are below the price. The session's count may
   * be old (earned since in another tab), so a shortfall is first checked with the server; when
   * it cannot say, the confirmation is asked and the server decides.
   */
  const askUnlessShort = async (ask: () => void) => {
    if (balance >= priceValue) return ask();
    setChecking(true);
    const current = await refreshSessionUser();
    setChecking(false);
    if (current && (current.credit_count ?? 0) < priceValue) setShortShown(true);
    else ask();
  };
  /**
   * A VIP's free download: the session's VIP may have ended (or an admin revoked it) since it was
   * read, and the server would then take the price unasked. The server says first; a member no
   * longer VIP is asked the price, or told the shortfall, as anybody is (the button now names it).
   */
  const startUnlessVipEnded = async (ask: () => void) => {
    setChecking(true);
    const current = await refreshSessionUser();
    setChecking(false);
    if (!current || current.is_vip) return start();
    if ((current.credit_count ?? 0) < priceValue) setShortShown(true);
    else ask();
  };
  const named = {
    free: `免费${what}`,
    bought: `已购买，免费${what}`,
    vip: `VIP 免费${what}`,
    price: `${what}（${price}）`,
  };
  return (
    <span className="app-download">
      <InlineConfirm
        tone="primary"
        question={`需 ${price}，确定下载？`}
        confirmLabel="确定下载"
        onConfirm={start}
        trigger={(ask) => (
          <Button
            type="primary"
            theme="solid"
            icon={<IconDownload />}
            loading={download.isPending || checking}
            onClick={() =>
              cost === 'vip' ? void startUnlessVipEnded(ask) : confirmFirst ? void askUnlessShort(ask) : start()
            }
          >
            {label ?? named[cost]}
          </Button>
        )}
      />
      {vipBadge && cost === 'price' && vipDownloadsFree(settings) && <span className="app-price__vip">VIP 免费</span>}
      {shortShown && confirmFirst && balance < priceValue && (
        <CreditShortfall
          price={priceValue}
          balance={balance}
          credits={credits}
          vip={vipDownloadsFree(settings) && !user?.is_vip}
          onClose={() => setShortShown(false)}
        />
      )}
      {refusal && !onRefused && (
        <span className="app-download__refusal" role="alert">
          {refusal}
        </span>
      )}
    </span>
  );
}

/**
 * What downloading costs this reader, beside the download bar's 下载: the price (marked VIP 免费
 * where VIP members download for free) while they would pay it, else why they do not, in the
 * words of the member's downloads (已购买, 我的文档, VIP 免费, 免费): never a price that no
 * longer applies to them.
 */
function CostFact({ doc }: { doc: Document }) {
  const settings = useSettings();
  const { user } = useSession();
  const cost = downloadCost(doc, settings, user, useBought(doc, user));
  if (cost === 'price' || !doc.price) return <DocumentPrice price={doc.price} settings={settings} />;
  const why = { free: '我的文档', bought: '已购买', vip: 'VIP 免费' };
  return <span className="app-price app-price--free">{why[cost]}</span>;
}

/** The id of the reader's download panel, where the download bar leads. */
export const DOWNLOAD_PANEL_ID = 'document-download';

/**
 * How long after a text field lost the focus the download bar comes back: a phone's tap sends its mousedown (which
 * blurs the field), mouseup and click only after the finger is lifted, so no pressed pointer holds the bar back then.
 */
const KEYBOARD_GONE_AFTER_MS = 300;

/**
 * The side card of the reader: format, size, price and the download button; after a refusal
 * (its own or the download bar's), its reason, and VIP where VIP members download for free
 * (the way past credits and limits).
 */
export function DownloadPanel({
  doc,
  refusal,
  onRefused,
}: {
  doc: Document;
  refusal: string | undefined;
  onRefused: (reason: string) => void;
}) {
  const settings = useSettings();
  const { user } = useSession();
  return (
    <section id={DOWNLOAD_PANEL_ID} className="app-panel app-download-panel" aria-labelledby="download-title">
      <h2 id="download-title" className="app-panel__title">
        下载文档
      </h2>
      <p className="app-download-panel__facts">
        <FormatIcon ext={doc.ext} />
        <span>{doc.size ? formatBytes(doc.size) : '-'}</span>
        <DocumentPrice price={doc.price} settings={settings} />
      </p>
      <DownloadButton doc={doc} onRefused={onRefused} />
      {refusal && (
        <p className="app-download__refusal" role="alert">
          {refusal}
        </p>
      )}
      {refusal && vipDownloadsFree(settings) && !user?.is_vip && (
        <p className="app-download__vip">
          <Link to="/vip">开通 VIP，免费下载</Link>
        </p>
      )}
    </section>
  );
}

/**
 * Whether the keyboard is in a text field, kept up to date. It goes at once; it comes back only once no pointer is
 * pressed and the tap or click that took the focus away is over: pressing a form's button (回复, 发表评论) blurs its
 * text field first, and a bar shown again at that moment would take the click meant for the button under it.
 */
function useTyping(): boolean {
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    let pressed = false;
    let timer: number | undefined;
    const update = () => {
      window.clearTimeout(timer);
      if (isTyping(document.activeElement)) setTyping(true);
      else if (!pressed)
        timer = window.setTimeout(() => {
          if (!pressed) setTyping(isTyping(document.activeElement));
        }, KEYBOARD_GONE_AFTER_MS);
    };
    const press = () => {
      pressed = true;
    };
    const release = () => {
      pressed = false;
      update();
    };
    document.addEventListener('focusin', update);
    document.addEventListener('focusout', update);
    window.addEventListener('pointerdown', press, true);
    window.addEventListener('pointerup', release, true);
    window.addEventListener('pointercancel', release, true);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('focusin', update);
      document.removeEventListener('focusout', update);
      window.removeEventListener('pointerdown', press, true);
      window.removeEventListener('pointerup', release, true);
      window.removeEventListener('pointercancel', release, true);
    };
  }, []);
  return typing;
}

/**
 * Keeps `--app-bottom-bar` (on the root) the height the bar covers at the bottom of the screen,
 * for what stands above it (the layout's floating bar): its height while it is drawn, grown by
 * the browser's font size (decision 111) or by a shortfall said below the price; none while it
 * steps aside or is not drawn (wider than 900 px). Until measured (the first screen, before the
 * app starts) reader.css gives 4rem, what the bar takes without a shortfall.
 */
function useBottomBarHeight() {
  return useRootHeight<HTMLDivElement>('--app-bottom-bar', barHeight);
}

const barHeight = (bar: HTMLElement) => bar.offsetHeight || null;

/**
 * Below 900 px the download panel comes after the whole document and its comments: this bar at
 * the bottom of the screen keeps the price and the download button in reach while reading. It
 * steps aside while the panel is on the screen and while one types (over the on-screen
 * keyboard it would cover the comment box's button); a refusal brings the panel with its reason.
 */
export function DownloadBar({ doc, onRefused }: { doc: Document; onRefused: (reason: string) => void }) {
  const [panelShown, setPanelShown] = useState(false);
  const typing = useTyping();
  const bar = useBottomBarHeight();
  useEffect(() => {
    const panel = document.getElementById(DOWNLOAD_PANEL_ID);
    if (!panel || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((entries) =>
      setPanelShown(entries.some((entry) => entry.isIntersecting)),
    );
    observer.observe(panel);
    return () => observer.disconnect();
  }, []);
  const refused = (reason: string) => {
    onRefused(reason);
    document.getElementById(DOWNLOAD_PANEL_ID)?.scrollIntoView({ block: 'center' });
  };
  return (
    <div ref={bar} className="app-download-bar" role="region" aria-label="下载" hidden={panelShown || typing}>
      <span className="app-download-bar__facts">
        <FormatIcon ext={doc.ext} />
        <CostFact doc={doc} />
      </span>
      <DownloadButton doc={doc} label="下载" onRefused={refused} />
    </div>
  );
}
