// An action confirmed in place, for the public and member screens (the admin's modal dialogs
// stay in the admin chunks): the trigger turns into "question 确定 / 取消". A removal by
// default (a small red 删除); a purchase (`tone="primary"`, its own trigger: the reader's paid
// download) asks the same way.
import { useState, type ReactNode } from 'react';
import { Button } from '../../ui/semi';
import './inline-confirm.css';

export function InlineConfirm({
  label,
  question,
  onConfirm,
  busy,
  accessibleName,
  trigger,
  confirmLabel = '确定',
  tone = 'danger',
}: {
  /** The default trigger's text (删除). */
  label?: string;
  question: string;
  onConfirm: () => void;
  busy?: boolean;
  /** What the default trigger says to screen readers, e.g. 删除「标题」. */
  accessibleName?: string;
  /** Another trigger, given what asks the question (it may also act without asking). */
  trigger?: (ask: () => void) => ReactNode;
  confirmLabel?: string;
  tone?: 'danger' | 'primary';
}) {
  const [asking, setAsking] = useState(false);
  const size = tone === 'danger' ? 'small' : 'default';
  if (!asking) {
    if (trigger) return <>{trigger(() => setAsking(true))}</>;
    return (
      <Button size="small" type="danger" theme="borderless" onClick={() => setAsking(true)} aria-label={accessibleName}>
        {label}
      </Button>
    );
  }
  return (
    <span className={`app-inline-confirm app-inline-confirm--${tone}`} role="group" aria-label={question}>
      <span className="app-inline-confirm__question">{question}</span>
      <Button
        size={size}
        type={tone}
        theme="solid"
        loading={busy}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </Button>
      <Button size={size} onClick={() => setAsking(false)}>
        取消
      </Button>
    </span>
  );
}
