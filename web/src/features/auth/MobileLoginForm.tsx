// Login with a mobile number and the code sent to it by SMS. Where registration is open, a
// number without an account gets one as it signs in (the form says so); where it is closed,
// the server refuses such a number before texting it.
import { useState, type FormEvent } from 'react';
import { normalizeMainlandMobile } from '../../../../shared/validation';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { FAILURE_TITLE } from '../../kit/toasts/failure-toast';
import { TextField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { useSettings } from '../settings/use-settings';
import { userApi } from '../user/api';
import { checkMobile, checkSmsCode } from '../user/validation';
import { useFinishSignIn } from './sign-in';
import { SmsCodeFields, useSmsCaptcha } from './SmsCode';

type Field = 'mobile' | 'captcha' | 'code';

export function MobileLoginForm({ target }: { target: string }) {
  const settings = useSettings();
  const registrationOpen = settings.security?.enable_register === true && !settings.security.is_close;
  const smsCaptcha = useSmsCaptcha();
  const { finish: finishSignIn, retractFailure } = useFinishSignIn(target);
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    retractFailure();
    const invalid = collectErrors<Field>({
      mobile: checkMobile(mobile, true),
      captcha: undefined,
      code: checkSmsCode(code),
    });
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    const result = await userApi.loginByMobile({
      mobile: normalizeMainlandMobile(mobile) ?? mobile.trim(),
      code: code.trim(),
    });
    const registered = result.ok && result.data.registered === true;
    const messages = registered
      ? { failure: FAILURE_TITLE.login, success: '注册成功', welcome: '已为您的手机号创建账号' }
      : { failure: FAILURE_TITLE.login, success: '登录成功', welcome: '欢迎回来' };
    if (await finishSignIn(result, messages)) return;
    setSubmitting(false);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      {registrationOpen && <p className="app-auth-note">验证码登录，未注册手机号将自动注册</p>}
      <TextField
        id="mobile"
        label="手机号"
        type="tel"
        value={mobile}
        onChange={setMobile}
        error={errors.mobile}
        placeholder="请输入中国大陆手机号"
        autoComplete="tel"
        maxLength={20}
      />
      <SmsCodeFields
        type="login"
        mobile={mobile}
        mobileProblem={() => checkMobile(mobile, true)}
        code={code}
        onCodeChange={setCode}
        errors={errors}
        setErrors={setErrors}
        smsCaptcha={smsCaptcha}
      />
      <Button htmlType="submit" theme="solid" size="large" block loading={submitting}>
        登录
      </Button>
    </form>
  );
}
