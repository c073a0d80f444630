import { CodeSendButton } from '../../kit/forms/CodeSendButton';
import { userApi } from '../user/api';
import { isCaptchaRefusal } from './CaptchaField';

const COOLDOWN_SECONDS = 60;

/**
 * Sends the registration code to `email` (after `validate` passes), then waits 60 s. The captcha
 * goes with it unspent (the registration spends it); `onCaptchaRefused` runs when the backend
 * no longer takes it (typed wrong, or asked with too often), for the form to show a new one.
 */
export function EmailCodeButton({
  email,
  validate,
  captcha,
  onCaptchaRefused,
}: {
  email: string;
  validate: () => boolean;
  /** The captcha fields of the request (see `captchaFields`). */
  captcha: { captcha?: string; captcha_id?: string };
  onCaptchaRefused: () => void;
}) {
  const send = async () => {
    const result = await userApi.sendEmailCode({ email: email.trim(), ...captcha });
    if (captcha.captcha_id && isCaptchaRefusal(result)) onCaptchaRefused();
    return result;
  };
  return (
    <CodeSendButton
      label="发送验证码"
      validate={validate}
      send={send}
      sent={() => ({ notice: '请查收邮件，验证码 30 分钟内有效', waitSeconds: COOLDOWN_SECONDS })}
    />
  );
}
