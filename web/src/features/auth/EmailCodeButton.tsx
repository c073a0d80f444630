import { useEffect, useState } from 'react';
import { userApi } from '../user/api';
import { Button } from '../../ui/semi';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';

const COOLDOWN_SECONDS = 60;

/** Sends the registration code to `email` (after `validate` passes), then waits 60 s. */
export function EmailCodeButton({
  email,
  validate,
  captcha,
}: {
  email: string;
  validate: () => boolean;
  /** The captcha fields of the request (see `captchaFields`). */
  captcha: { captcha?: string; captcha_id?: string };
}) {
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (seconds <= 0) return undefined;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);

  const send = async () => {
    if (!validate()) return;
    setSending(true);
    const result = await userApi.sendEmailCode({ email: email.trim(), ...captcha });
    setSending(false);
    if (!result.ok) {
      toastFailure('发送验证码失败', result);
      return;
    }
    toast.success('验证码已发送', '请查收邮件，验证码 30 分钟内有效');
    setSeconds(COOLDOWN_SECONDS);
  };

  return (
    <Button onClick={() => void send()} loading={sending} disabled={seconds > 0} size="large">
      {seconds > 0 ? `${seconds} 秒后重发` : '发送验证码'}
    </Button>
  );
}
