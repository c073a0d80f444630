// The registration screen's forms: a new member account with a username (and e-mail), or,
// when the site sends SMS, with a mobile number and the code sent to it; logged in at once.
// When the site does not take registrations, why not.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { checkRequired, collectErrors } from '../../kit/forms/checks';
import { useFormValues } from '../../kit/forms/use-form-values';
import { FAILURE_TITLE } from '../../kit/toasts/failure-toast';
import { TextField } from '../../ui/FormField';
import { TabSwitch } from '../../ui/TabSwitch';
import { useSettings } from '../settings/use-settings';
import { userApi } from '../user/api';
import { checkConfirmation, checkEmail, checkPassword, checkUsername, takenField } from '../user/validation';
import { CaptchaField, captchaEnabled, captchaFields, captchaProblem, useCaptcha } from './CaptchaField';
import { EmailCodeButton } from './EmailCodeButton';
import { MobileRegisterForm } from './MobileRegisterForm';
import { useSignInForm } from './sign-in';
import { useSmsEnabled } from './SmsCode';
import { AgreementNote } from './AgreementNote';
import { AuthSubmitButton, EmailField, NewPasswordFields, NewUsernameField } from './AuthFields';

type Field = 'username' | 'email' | 'password' | 'confirmation' | 'code' | 'captcha';
type Mode = 'mobile' | 'username';

const MODES = [
  { key: 'mobile', label: '手机号注册' },
  { key: 'username', label: '用户名注册' },
] as const;

function UsernameRegisterForm({ target }: { target: string }) {
  const { security = {} } = useSettings();
  const captcha = useCaptcha('register', captchaEnabled(security, 'register'));
  const needsCode = security.enable_verify_register_email === true;
  const { form, setForm, set } = useFormValues({
    username: '',
    email: '',
    password: '',
    confirmation: '',
    code: '',
    captcha: '',
  });
  const { errors, setErrors, submitting, submit: signIn, formRef } = useSignInForm<Field>(target);

  /** A new captcha, the old one's text cleared: the backend spent or refused the old one. */
  const renewCaptcha = () => {
    setForm((f) => ({ ...f, captcha: '' }));
    captcha.refresh();
  };

  const validateForCode = () => {
    const invalid = collectErrors({ email: checkEmail(form.email), captcha: captchaProblem(captcha, form.captcha) });
    setErrors(invalid ?? {});
    return !invalid;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refused = await signIn(
      {
        username: checkUsername(form.username),
        email: checkEmail(form.email),
        password: checkPassword(form.password),
        confirmation: checkConfirmation(form.password, form.confirmation),
        code: needsCode ? checkRequired(form.code, '请输入邮箱验证码') : undefined,
        captcha: captchaProblem(captcha, form.captcha),
      },
      () =>
        userApi.register({
          username: form.username.trim(),
          email: form.email.trim(),
          password: form.password,
          ...(needsCode ? { code: form.code.trim() } : {}),
          ...captchaFields(captcha, form.captcha),
        }),
      { failure: FAILURE_TITLE.register, success: '注册成功', welcome: '欢迎加入' },
      takenField,
    );
    if (refused && captcha.required) renewCaptcha();
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
      <NewUsernameField value={form.username} onChange={set('username')} error={errors.username} />
      <EmailField value={form.email} onChange={set('email')} error={errors.email} placeholder="用于找回密码" />
      <NewPasswordFields label="密码" form={form} set={set} errors={errors} />
      <CaptchaField captcha={captcha} value={form.captcha} onChange={set('captcha')} error={errors.captcha} />
      {needsCode && (
        <TextField
          id="code"
          label="邮箱验证码"
          value={form.code}
          onChange={set('code')}
          error={errors.code}
          placeholder="请输入邮件中的验证码"
          autoComplete="one-time-code"
          maxLength={8}
          addon={
            <EmailCodeButton
              email={form.email}
              validate={validateForCode}
              captcha={captchaFields(captcha, form.captcha)}
              onCaptchaRefused={renewCaptcha}
            />
          }
        />
      )}
      <AuthSubmitButton submitting={submitting}>注册</AuthSubmitButton>
    </form>
  );
}

export function RegisterForm({ target }: { target: string }) {
  const { security = {} } = useSettings();
  const smsEnabled = useSmsEnabled();
  const [mode, setMode] = useState<Mode>('mobile');
  const open = security.enable_register === true && security.is_close !== true;

  if (!open) {
    return (
      <div className="app-state" role="status">
        <h1 className="app-auth-title">注册</h1>
        <p className="app-state__title">{security.is_close ? '网站已关闭，暂时不允许注册' : '系统未开放注册'}</p>
        <Link to={loginLocation(target)}>已有账号？去登录</Link>
      </div>
    );
  }

  return (
    <section aria-labelledby="register-title">
      <h1 id="register-title" className="app-auth-title">
        注册
      </h1>
      {smsEnabled && <TabSwitch label="注册方式" tabs={MODES} active={mode} onChange={setMode} />}
      {smsEnabled && mode === 'mobile' ? (
        <MobileRegisterForm target={target} />
      ) : (
        <UsernameRegisterForm target={target} />
      )}
      <AgreementNote />
      <div className="app-auth-links">
        <span />
        <Link to={loginLocation(target)}>已有账号？去登录</Link>
      </div>
    </section>
  );
}
