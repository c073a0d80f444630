import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconClose,
  IconInfoCircle,
  IconSpin,
  IconTickCircle,
} from '../../ui/icons';
import { TOAST } from '../../../../shared/constants';
import { closeToast, pauseToast, resumeToast, toasts, type Toast, type ToastIcon } from './toast-store';
import './toasts.css';

export const TOAST_HOTKEY = TOAST.hotkey;

function ToastGlyph({ icon }: { icon: ToastIcon }) {
  switch (icon) {
    case 'success':
      return <IconTickCircle />;
    case 'warning':
      return <IconAlertTriangle />;
    case 'error':
      return <IconAlertCircle />;
    case 'loading':
      return <IconSpin spin />;
    case 'info':
      return <IconInfoCircle />;
    default:
      return null;
  }
}

// No live region itself: a toast is said through ToastAnnouncements' regions, since NVDA and VoiceOver
// do not read a live region that comes into the page already filled.
function ToastCard({ toast }: { toast: Toast }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') closeToast(toast.id);
  };
  return (
    <div
      className={`app-toast app-toast--${toast.color}`}
      data-state={toast.open ? 'open' : 'closed'}
      tabIndex={0}
      onMouseEnter={() => pauseToast(toast.id)}
      onMouseLeave={() => resumeToast(toast.id)}
      onFocus={() => pauseToast(toast.id)}
      onBlur={() => resumeToast(toast.id)}
      onKeyDown={onKeyDown}
    >
      {toast.icon !== 'none' && (
        <span className="app-toast__icon" aria-hidden="true">
          <ToastGlyph icon={toast.icon} />
        </span>
      )}
      <div className="app-toast__body">
        <div className="app-toast__title">{toast.title}</div>
        {toast.description && <div className="app-toast__description">{toast.description}</div>}
        {toast.actions.length > 0 && (
          <div className="app-toast__actions">
            {toast.actions.map((action) => (
              <button
                key={action.label}
                type="button"
                className="app-toast__action"
                onClick={() => {
                  action.onClick();
                  closeToast(toast.id);
                }}
              >
                {action.label}
              </button>
            ))}
          </div>
        )}
      </div>
      {toast.close && (
        <button type="button" className="app-toast__close" aria-label="关闭" onClick={() => closeToast(toast.id)}>
          <IconClose size="small" />
        </button>
      )}
    </div>
  );
}

/**
 * What a screen reader says of a toast: its title, then its message, then its buttons and the key that
 * reaches them. The focus stays where the user is (an alert does not take it, WAI-ARIA APG), so a
 * listener hears that 重试 is there and how to get to it before the toast closes.
 */
function spokenText(toast: Toast): string {
  const said = toast.description ? `${toast.title}：${toast.description}` : toast.title;
  if (toast.actions.length === 0) return said;
  const labels = toast.actions.map((action) => `“${action.label}”`).join('或');
  return `${said}，按 ${TOAST_HOTKEY} 可前往${labels}`;
}

/**
 * The live regions that say the toasts: in the page before any toast (a region that appears with
 * its text is not read), visually hidden, polite for a toast and assertive for an error. Each open
 * toast adds a line of its own, keyed by its id, so it is said once as it comes, and again when a
 * toast of the same key replaces it; a closed toast's line goes unsaid (removals are not read).
 */
function ToastAnnouncements({ list }: { list: Toast[] }) {
  const lines = (urgent: boolean) =>
    list.filter((t) => t.open && (t.color === 'error') === urgent).map((t) => <p key={t.id}>{spokenText(t)}</p>);
  return (
    <>
      <div className="app-visually-hidden" aria-live="polite">
        {lines(false)}
      </div>
      <div className="app-visually-hidden" aria-live="assertive">
        {lines(true)}
      </div>
    </>
  );
}

/** Bottom-right stack of toasts; F8 moves the keyboard focus to the newest one. */
export function ToastViewport() {
  useSignals();
  const list = toasts.value;
  const regionRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== TOAST_HOTKEY) return;
      const region = regionRef.current;
      if (!region) return;
      event.preventDefault();
      const items = region.querySelectorAll<HTMLElement>('.app-toast[data-state="open"]');
      const target = items[items.length - 1] ?? region;
      target.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    // A named region (a landmark, as every part of a page should be), the stack of toasts in it.
    <section aria-label={`通知 (${TOAST_HOTKEY})`}>
      <div ref={regionRef} className="app-toasts" tabIndex={-1}>
        {list.map((t) => (
          <ToastCard key={t.id} toast={t} />
        ))}
      </div>
      <ToastAnnouncements list={list} />
    </section>
  );
}
