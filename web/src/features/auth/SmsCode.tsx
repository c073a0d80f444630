// What every form that sends an SMS code shares: the image captcha in front of the sending
// (when `security.enable_captcha_sms` asks; each send spends it), and the 获取验证码 button
// with its countdown. The code itself never comes back: it arrives by SMS.
import { useState } from 'react';
import { SMS_CODE_TTL_MINUTES, type SmsCodePurpose } from '../../../../shared/constants';
import { normalizeMainlandMobile } from '../../../../shared/validation';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { CodeSendButton } from '../../kit/forms/CodeSendButton';
import { TextField } from '../../ui/FormField';
import { useSettings } from '../settings/use-settings';
import { userApi } from '../user/api';
import { checkMobile, checkSmsCode } from '../user/validation';
import { MobileField } from './AuthFields';
import {
  CaptchaField,
  captchaEnabled,
  captchaFields,
  captchaProblem,
  useCaptcha,
  type CaptchaState,
} from './CaptchaField';

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
function SmsCodeButton({
  type,
  mobile,
  validate,
  smsCaptcha,
}: {
  type: SmsCodePurpose;
  mobile: string;
  validate: () => boolean;
  smsCaptcha: SmsCaptcha;
}) {
  const send = async () => {
    const result = await userApi.sendSmsCode({
      mobile: normalizeMainlandMobile(mobile) ?? mobile.trim(),
      type,
      ...smsCaptcha.fields(),
    });
    smsCaptcha.renew();
    return result;
  };
  return (
    <CodeSendButton
      label="获取验证码"
      validate={validate}
      send={send}
      sent={(reply) => ({
        notice: `请查收短信，验证码 ${SMS_CODE_TTL_MINUTES} 分钟内有效`,
        waitSeconds: reply.interval ?? DEFAULT_INTERVAL,
      })}
    />
  );
}

/**
 * The image captcha (when one is required) and the SMS code field with its send button:
 * what follows the mobile-number field in every form that signs with an SMS code.
 */
export function SmsCodeFields({
  id = 'sms-code',
  type,
  mobile,
  mobileProblem,
  code,
  onCodeChange,
  errors,
  setErrors,
  smsCaptcha,
}: {
  id?: string;
  type: SmsCodePurpose;
  mobile: string;
  /** The check of the number before a send. */
  mobileProblem: () => string | undefined;
  code: string;
  onCodeChange: (code: string) => void;
  errors: Errors<'captcha' | 'code'>;
  /** Shows what stops a send (the number, the captcha) in place of the form's errors. */
  setErrors: (errors: Errors<'mobile' | 'captcha'>) => void;
  smsCaptcha: SmsCaptcha;
}) {
  const validate = () => {
    const invalid = collectErrors({ mobile: mobileProblem(), captcha: smsCaptcha.problem() });
    setErrors(invalid ?? {});
    return !invalid;
  };
  return (
    <>
      <CaptchaField
        captcha={smsCaptcha.captcha}
        value={smsCaptcha.text}
        onChange={smsCaptcha.setText}
        error={errors.captcha}
      />
      <TextField
        id={id}
        label="短信验证码"
        value={code}
        onChange={onCodeChange}
        error={errors.code}
        placeholder="6 位数字"
        autoComplete="one-time-code"
        maxLength={6}
        addon={<SmsCodeButton type={type} mobile={mobile} validate={validate} smsCaptcha={smsCaptcha} />}
      />
    </>
  );
}

/**
 * The mobile number (a mainland one) followed by the SMS code fields, from the form's values:
 * what the forms that sign in, register or reset a password by SMS open with.
 */
export function MobileCodeFields({
  type,
  form,
  set,
  errors,
  setErrors,
  smsCaptcha,
  placeholder,
}: {
  type: SmsCodePurpose;
  form: { mobile: string; code: string };
  set: (field: 'mobile' | 'code') => (value: string) => void;
  errors: Errors<'mobile' | 'captcha' | 'code'>;
  setErrors: (errors: Errors<'mobile' | 'captcha'>) => void;
  smsCaptcha: SmsCaptcha;
  /** The mobile field's placeholder, where the form wants a particular number. */
  placeholder?: string;
}) {
  return (
    <>
      <MobileField value={form.mobile} onChange={set('mobile')} error={errors.mobile} placeholder={placeholder} />
      <SmsCodeFields
        type={type}
        mobile={form.mobile}
        mobileProblem={() => checkMobile(form.mobile, true)}
        code={form.code}
        onCodeChange={set('code')}
        errors={errors}
        setErrors={setErrors}
        smsCaptcha={smsCaptcha}
      />
    </>
  );
}

/** The checks of MobileCodeFields' values, for the form's `collectErrors`. */
export function mobileCodeProblems(form: { mobile: string; code: string }) {
  return { mobile: checkMobile(form.mobile, true), captcha: undefined, code: checkSmsCode(form.code) };
}

/** The number and code as the backend takes them. */
export function mobileCodeRequest(form: { mobile: string; code: string }) {
  return { mobile: normalizeMainlandMobile(form.mobile) ?? form.mobile.trim(), code: form.code.trim() };
}
