// The send button beside a verification-code field (by e-mail or SMS): it asks for a code
// once the form's own checks pass, then counts down the seconds before the next one.
import { useEffect, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ApiResult } from '../../api/client';
import { Button } from '../../ui/semi';
import { toastFailure } from '../toasts/failure-toast';
import { toast } from '../toasts/toast-store';

export function CodeSendButton<T>({
  label,
  validate,
  send,
  sent,
}: {
  /** The label before the first send (获取验证码, 发送验证码). */
  label: string;
  validate: () => boolean;
  send: () => Promise<ApiResult<T>>;
  /** From the answer: where to look for the code (the toast's text) and the seconds to wait. */
  sent: (data: T) => { notice: string; waitSeconds: number };
}) {
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);
  const id = useId();

  useEffect(() => {
    if (seconds <= 0) return undefined;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const sendCode = async () => {
    if (!validate()) return;
    setSending(true);
    const result = await send();
    setSending(false);
    if (!result.ok) {
      toastFailure('发送验证码失败', result);
      return;
    }
    const { notice, waitSeconds } = sent(result.data);
    toast.success('验证码已发送', notice);
    // Counting down, the button is disabled, which drops its focus on <body>: the keyboard goes to
    // the field the code is typed in, beside it (unless it went elsewhere meanwhile).
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || focused.id === id;
    flushSync(() => setSeconds(waitSeconds));
    // (Semi draws the idle button anew: it is looked up once drawn.)
    if (lost) document.getElementById(id)?.closest('.app-field')?.querySelector<HTMLElement>('input')?.focus();
  };

  return (
    <Button id={id} onClick={() => void sendCode()} loading={sending} disabled={seconds > 0} size="large">
      {seconds > 0 ? `${seconds} 秒后重发` : label}
    </Button>
  );
}
