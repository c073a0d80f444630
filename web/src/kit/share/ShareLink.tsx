// Sharing a page's address: 复制链接 copies it (the address then shown to copy by hand, which a
// browser refusing the clipboard leaves as the only way), and on a phone whose browser has the
// Web Share API, 分享 opens the system's share sheet. The address is worked out when asked for:
// the gateway renders these screens where there is no window.
import { useState, useSyncExternalStore } from 'react';
import { Button } from '../../ui/semi';
import { toast } from '../toasts/toast-store';
import { copyToClipboard } from './CopyTextButton';
import './share.css';

/** A phone (docs/product.md §2: up to 640 px): where the share sheet is offered. */
const PHONE = '(max-width: 640px)';

const addressOf = (path: string) => `${window.location.origin}${path}`;

/** Copies the address of `path` on this site; says 链接已复制, or why not and what to do instead. */
export function CopyLinkButton({ path, label = '复制链接' }: { path: string; label?: string }) {
  const [shown, setShown] = useState(false);
  const copy = async () => {
    const url = addressOf(path);
    setShown(true);
    if (await copyToClipboard(url)) toast.success('链接已复制', url);
    else toast.warning('浏览器未允许复制', '请复制下方链接分享');
  };
  return (
    <>
      <Button onClick={() => void copy()}>{label}</Button>
      {shown && (
        <input
          className="app-share__url"
          readOnly
          value={addressOf(path)}
          aria-label="分享链接"
          onFocus={(event) => event.target.select()}
        />
      )}
    </>
  );
}

/** Follows the window across the phone's width (a turned phone, a resized window). */
function subscribePhone(onChange: () => void): () => void {
  const media = window.matchMedia(PHONE);
  media.addEventListener?.('change', onChange);
  return () => media.removeEventListener?.('change', onChange);
}
const canShareSheet = () => typeof navigator.share === 'function' && window.matchMedia(PHONE).matches;
/** The gateway's render, and the first render over it, offer no share sheet. */
const noShareSheet = () => false;

/** 分享 through the system's share sheet, on a phone whose browser has it; nothing elsewhere. */
export function ShareSheetButton({ path, title }: { path: string; title: string }) {
  const available = useSyncExternalStore(subscribePhone, canShareSheet, noShareSheet);
  if (!available) return null;
  const share = async () => {
    try {
      await navigator.share({ title, url: addressOf(path) });
    } catch (error) {
      // The reader closing the sheet is no failure.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      toast.warning('无法打开分享', '请使用“复制链接”');
    }
  };
  return <Button onClick={() => void share()}>分享</Button>;
}
