// What every form that sends an SMS code shares: the image captcha in front of the sending
// (when `security.enable_captcha_sms` asks; each send spends it), and the 获取验证码 button
// with its countdown. The code itself never comes back: it arrives by SMS.
import { useEffect, useState } from 'react';
import { SMS_CODE_TTL_MINUTES, type SmsCodePurpose } from '../../../../shared/constants';
import { normalizeMainlandMobile } from '../../../../shared/validation';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { useSettings } from '../settings/use-settings';
import { userApi } from '../user/api';
import { captchaEnabled, captchaFields, captchaProblem, useCaptcha, type CaptchaState } from './CaptchaField';

/** Seconds to wait when the answer does not say (the backend's default interval). */
const DEFAULT_INTERVAL = 60;

export interface SmsCaptcha {
  captcha: CaptchaState;
  text: string;
  setText: (text: string) => void;
  /** The check of the typed captcha, when one is required. */
  problem: () => string | undefined;
  /** The captcha fields of the send request. */
  fields: () => { captcha?: string; captcha_id?: string };
  /** After a send: the backend spent the captcha, so a new one is needed. */
  renew: () => void;
}

/** The image captcha of SendSmsCode, with the text typed into it. */
export function useSmsCaptcha(): SmsCaptcha {
  const { security } = useSettings();
  const captcha = useCaptcha('sms', captchaEnabled(security, 'sms'));
  const [text, setText] = useState('');
  return {
    captcha,
    text,
    setText,
    problem: () => captchaProblem(captcha, text),
    fields: () => captchaFields(captcha, text),
    renew: () => {
      if (!captcha.required) return;
      setText('');
      captcha.refresh();
    },
  };
}

/** Whether the settings offer the mobile-number flows. */
export function useSmsEnabled(): boolean {
  return useSettings().sms?.enable === true;
}

/**
 * Sends a `type` code to `mobile` once `validate` passes (the number, the captcha), then
 * counts down the seconds the backend asks to wait before the next one.
 */
export function SmsCodeButton({ type, mobile, validate, smsCaptcha }: {
  type: SmsCodePurpose;
  mobile: string;
  validate: () => boolean;
  smsCaptcha: SmsCaptcha;
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
    const result = await userApi.sendSmsCode({ mobile: normalizeMainlandMobile(mobile) ?? mobile.trim(), type, ...smsCaptcha.fields() });
    setSending(false);
    smsCaptcha.renew();
    if (!result.ok) {
      toastFailure('发送验证码失败', result);
      return;
    }
    toast.success('验证码已发送', `请查收短信，验证码 ${SMS_CODE_TTL_MINUTES} 分钟内有效`);
    setSeconds(result.data.interval ?? DEFAULT_INTERVAL);
  };

  return (
    <Button onClick={() => void send()} loading={sending} disabled={seconds > 0} size="large">
      {seconds > 0 ? `${seconds} 秒后重发` : '获取验证码'}
    </Button>
  );
}
