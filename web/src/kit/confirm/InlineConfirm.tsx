// A destructive action confirmed in place, for the public and member screens (the admin's
// modal dialogs stay in the admin chunks): the button turns into "确定…？ 确定 / 取消".
import { useState } from 'react';
import { Button } from '../../ui/semi';
import './inline-confirm.css';

export function InlineConfirm({ label, question, onConfirm, busy, accessibleName }: {
  label: string;
  question: string;
  onConfirm: () => void;
  busy?: boolean;
  /** What the button says to screen readers, e.g. 删除「标题」. */
  accessibleName?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button size="small" type="danger" theme="borderless" onClick={() => setAsking(true)} aria-label={accessibleName}>
        {label}
      </Button>
    );
  }
  return (
    <span className="app-inline-confirm" role="group" aria-label={question}>
      <span className="app-inline-confirm__question">{question}</span>
      <Button
        size="small"
        type="danger"
        theme="solid"
        loading={busy}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        确定
      </Button>
      <Button size="small" onClick={() => setAsking(false)}>
        取消
      </Button>
    </span>
  );
}
