// An action confirmed in place, for the public and member screens (the admin's modal dialogs
// stay in the admin chunks): the trigger turns into "question 确定 / 取消". A removal by
// default (a small red 删除); a purchase (`tone="primary"`, its own trigger: the reader's paid
// download) asks the same way. The trigger and the question swap under the keyboard: the question
// takes the focus on 取消 (the safe answer; its group is read with the question), Escape is 取消,
// and an answer gives the focus back to the trigger, never to the page.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../ui/semi';
import './inline-confirm.css';

export function InlineConfirm({
  label = '删除',
  question,
  onConfirm,
  busy,
  accessibleName,
  trigger,
  confirmLabel = '确定',
  tone = 'danger',
}: {
  /** The default trigger's text, 删除 unless told: a trigger with none would be an empty, unseen button. */
  label?: string;
  question: string;
  onConfirm: () => void;
  busy?: boolean;
  /** What the default trigger says to screen readers, e.g. 删除“标题”. */
  accessibleName?: string;
  /** Another trigger, given what asks the question (it may also act without asking). */
  trigger?: (ask: () => void) => ReactNode;
  confirmLabel?: string;
  tone?: 'danger' | 'primary';
}) {
  const [asking, setAsking] = useState(false);
  const slot = useRef<HTMLSpanElement>(null);
  // The visitor's own asks and answers: the first render takes no focus.
  const [swaps, setSwaps] = useState(0);
  const ask = () => {
    setAsking(true);
    setSwaps((n) => n + 1);
  };
  const answer = () => {
    setAsking(false);
    setSwaps((n) => n + 1);
  };
  useEffect(() => {
    if (swaps === 0) return;
    const target = asking ? '.app-inline-confirm__cancel' : 'button, a[href], [tabindex]';
    slot.current?.querySelector<HTMLElement>(target)?.focus();
  }, [swaps, asking]);
  const size = tone === 'danger' ? 'small' : 'default';
  return (
    <span ref={slot} className="app-inline-confirm__slot">
      {!asking ? (
        trigger ? (
          trigger(ask)
        ) : (
          <Button size="small" type="danger" theme="borderless" onClick={ask} aria-label={accessibleName}>
            {label}
          </Button>
        )
      ) : (
        <span
          className={`app-inline-confirm app-inline-confirm--${tone}`}
          role="group"
          aria-label={question}
          onKeyDown={(event) => {
            if (event.key === 'Escape') answer();
          }}
        >
          <span className="app-inline-confirm__question">{question}</span>
          <Button
            size={size}
            type={tone}
            theme="solid"
            loading={busy}
            onClick={() => {
              onConfirm();
              answer();
            }}
          >
            {confirmLabel}
          </Button>
          <Button size={size} className="app-inline-confirm__cancel" onClick={answer}>
            取消
          </Button>
        </span>
      )}
    </span>
  );
}
