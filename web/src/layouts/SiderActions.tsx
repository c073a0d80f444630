import { Suspense, useState } from 'react';
import { lazy } from '../ui/lazy';
import { useSettings } from '../features/settings/use-settings';
import { IconArrowUp, IconComment, IconMail } from '../ui/icons';
import { scrollMotion } from '../kit/visibility/scroll-motion';

const FeedbackDialog = lazy(async () => ({
  default: (await import('../features/feedback/FeedbackDialog')).FeedbackDialog,
}));

/** The floating bar on the right: WeChat QR code, contact, feedback (a dialog with the form), back to top. */
export function SiderActions() {
  const { display = {} } = useSettings();
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const contact = display.contact_link;
  return (
    <aside className="app-sider-actions" aria-label="快捷操作">
      {display.wechat_qrcode && (
        <div
          className="app-sider-actions__item app-sider-actions__wechat"
          tabIndex={0}
          aria-label={display.wechat_tip || '微信公众号'}
        >
          <span aria-hidden="true">微信</span>
          <div className="app-sider-actions__panel" role="tooltip">
            <img src={display.wechat_qrcode} alt="微信二维码" width={140} height={140} />
            {display.wechat_tip && <p>{display.wechat_tip}</p>}
          </div>
        </div>
      )}
      {contact && (
        <a
          className="app-sider-actions__item"
          href={contact}
          title={display.contact_tip || '联系我们'}
          target="_blank"
          rel="noopener noreferrer"
        >
          <IconMail />
          <span className="app-visually-hidden">联系我们</span>
        </a>
      )}
      <button type="button" className="app-sider-actions__item" title="意见反馈" onClick={() => setFeedbackOpen(true)}>
        <IconComment />
        <span className="app-visually-hidden">意见反馈</span>
      </button>
      {feedbackOpen && (
        <Suspense fallback={null}>
          <FeedbackDialog onClose={() => setFeedbackOpen(false)} />
        </Suspense>
      )}
      <button
        type="button"
        className="app-sider-actions__item"
        title="返回顶部"
        onClick={() => window.scrollTo({ top: 0, behavior: scrollMotion() })}
      >
        <IconArrowUp />
        <span className="app-visually-hidden">返回顶部</span>
      </button>
    </aside>
  );
}
