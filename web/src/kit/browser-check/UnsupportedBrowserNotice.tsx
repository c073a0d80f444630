import { useState } from 'react';
import { Notice } from '../../ui/Notice';
import { UNSUPPORTED_BROWSER_MESSAGE } from '../../../../shared/constants';
import { isSupportedBrowser } from './browser-support';

/** The top banner of docs/product.md §8 for browsers older than the minimum versions. */
export default function UnsupportedBrowserNotice({ userAgent = navigator.userAgent }: { userAgent?: string }) {
  const [supported] = useState(() => isSupportedBrowser(userAgent));
  const [dismissed, setDismissed] = useState(false);
  if (supported || dismissed) return null;
  return (
    <div className="app-browser-banner" role="region" aria-label="浏览器版本提示">
      <Notice
        type="warning"
        fullMode
        description={
          <>
            {UNSUPPORTED_BROWSER_MESSAGE}{' '}
            <a href="https://www.google.cn/chrome/" target="_blank" rel="noopener noreferrer">
              下载 Chrome
            </a>
          </>
        }
        onClose={() => setDismissed(true)}
      />
    </div>
  );
}
