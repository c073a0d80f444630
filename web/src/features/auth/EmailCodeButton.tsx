import { CodeSendButton } from '../../kit/forms/CodeSendButton';
import { userApi } from '../user/api';

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
  return (
    <CodeSendButton
      label="发送验证码"
      validate={validate}
      send={() => userApi.sendEmailCode({ email: email.trim(), ...captcha })}
      sent={() => ({ notice: '请查收邮件，验证码 30 分钟内有效', waitSeconds: COOLDOWN_SECONDS })}
    />
  );
}
