// Asks before leaving a screen whose form holds unsaved changes: a move inside the site (a
// menu entry, a link, the browser's back) waits for 离开 or 留下, asked in place (decision
// 031); a reload or a closed tab gets the browser's own question.
import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';
import { Button } from '../../ui/semi';
import './leave-guard.css';

export function LeaveGuard({ when, question }: { when: boolean; question: string }) {
  // A save that leaves the screen re-renders with `when` off (flushSync) before it navigates.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return undefined;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [when]);

  if (blocker.state !== 'blocked') return null;
  return <LeaveQuestion question={question} onLeave={() => blocker.proceed?.()} onStay={() => blocker.reset?.()} />;
}

/**
 * The question itself, for a form that another form replaces in place too (我的文档's 编辑 of
 * another row): 离开 or 留下继续编辑, brought into view with the keyboard on it.
 */
export function LeaveQuestion({
  question,
  label = '离开此页',
  onLeave,
  onStay,
}: {
  question: string;
  /** What the member would leave: the page, or the form in it. */
  label?: string;
  onLeave: () => void;
  onStay: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  // What had the focus when the question came (the link followed): 留下 gives it back there.
  const before = useRef<Element | null>(null);
  useEffect(() => {
    before.current = document.activeElement;
    box.current?.scrollIntoView?.({ block: 'center' });
    box.current?.focus();
  }, []);
  const stay = () => {
    onStay();
    const back = before.current;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };

  return (
    <div
      ref={box}
      className="app-leave-guard"
      role="alertdialog"
      aria-label={label}
      tabIndex={-1}
      // Escape answers as a dialog's does: nothing is done, the member stays.
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        stay();
      }}
    >
      <p className="app-leave-guard__question">{question}</p>
      <div className="app-leave-guard__actions">
        <Button type="danger" onClick={onLeave}>
          离开
        </Button>
        <Button theme="solid" type="primary" onClick={stay}>
          留下继续编辑
        </Button>
      </div>
    </div>
  );
}
