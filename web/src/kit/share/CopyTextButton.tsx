// 复制 beside a text the member has to type elsewhere (a transfer's order number into a bank
// app), and the clipboard write every 复制 of the site goes through (复制链接's too).
import { Button } from '../../ui/semi';
import { toast } from '../toasts/toast-store';

/** Puts `text` on the clipboard; false when the browser refuses (no permission, an insecure address) or has none. */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copies `text`, called `what` (订单号): says `what`已复制, or that the browser refused and to copy it by hand. */
export function CopyTextButton({ text, what }: { text: string; what: string }) {
  const copy = async () => {
    if (await copyToClipboard(text)) toast.success(`${what}已复制`, text);
    else toast.warning('浏览器未允许复制', `请长按或选中${what}手动复制`);
  };
  return (
    <Button size="small" aria-label={`复制${what}`} onClick={() => void copy()}>
      复制
    </Button>
  );
}
