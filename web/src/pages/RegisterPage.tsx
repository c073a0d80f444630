import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { safeRedirect } from '../../../shared/access';
import { userApi } from '../features/user/api';
import { CaptchaField, captchaEnabled, useCaptcha } from '../features/auth/CaptchaField';
import { EmailCodeButton } from '../features/auth/EmailCodeButton';
import { SignedInNotice } from '../features/auth/SignedInNotice';
import { checkConfirmation, checkEmail, checkPassword, checkUsername } from '../features/user/validation';
import { checkRequired, collectErrors, type Errors } from '../kit/forms/checks';
import { completeSignIn } from '../features/session/session-actions';
import { useSession } from '../features/session/use-session';
import { useSettings } from '../features/settings/use-settings';
import { FAILURE_TITLE, toastFailure } from '../kit/toasts/failure-toast';
import { toast } from '../kit/toasts/toast-store';
import { TextField } from '../ui/FormField';
import { Button } from '../ui/semi';

type Field = 'username' | 'email' | 'password' | 'confirmation' | 'code' | 'captcha';

/** `/auth/register`: a new member account, logged in at once. */
export function RegisterPage() {
  const { security = {} } = useSettings();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { loggedIn } = useSession();
  const target = safeRedirect(params.get('redirect'));
  const open = security.enable_register === true && security.is_close !== true;
  const captcha = useCaptcha('register', open && captchaEnabled(security, 'register'));
  const needsCode = security.enable_verify_register_email === true;
  const [alreadySignedIn] = useState(loggedIn);
  const [form, setForm] = useState({ username: '', email: '', password: '', confirmation: '', code: '', captcha: '' });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [submitting, setSubmitting] = useState(false);

  if (alreadySignedIn) return <SignedInNotice target={target} />;
  if (!open) {
    return (
      <div className="app-state" role="status">
        <h1 className="app-auth-title">注册</h1>
        <p className="app-state__title">{security.is_close ? '网站已关闭，暂时不允许注册' : '系统未开放注册'}</p>
        <Link to="/auth/login">已有账号？去登录</Link>
      </div>
    );
  }

  const set = (field: Field) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const captchaCheck = () => (captcha.required ? checkRequired(form.captcha, '请输入验证码') : undefined);

  const validateForCode = () => {
    const invalid = collectErrors({ email: checkEmail(form.email), captcha: captchaCheck() });
    setErrors(invalid ?? {});
    return !invalid;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<Field>({
      username: checkUsername(form.username),
      email: checkEmail(form.email),
      password: checkPassword(form.password),
      confirmation: checkConfirmation(form.password, form.confirmation),
      code: needsCode ? checkRequired(form.code, '请输入邮箱验证码') : undefined,
      captcha: captchaCheck(),
    });
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    const result = await userApi.register({
      username: form.username.trim(),
      email: form.email.trim(),
      password: form.password,
      ...(needsCode ? { code: form.code.trim() } : {}),
      ...(captcha.required ? { captcha: form.captcha.trim(), captcha_id: captcha.id } : {}),
    });
    if (!result.ok || !result.data.user) {
      setSubmitting(false);
      toastFailure(FAILURE_TITLE.register, result.ok ? undefined : result);
      if (captcha.required) {
        setForm((f) => ({ ...f, captcha: '' }));
        captcha.refresh();
      }
      return;
    }
    await completeSignIn(result.data.user);
    toast.success('注册成功', `欢迎加入，${result.data.user.username ?? ''}`);
    await navigate(target, { replace: true });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="register-title">
      <h1 id="register-title" className="app-auth-title">
        注册
      </h1>
      <TextField id="username" label="用户名" value={form.username} onChange={set('username')} error={errors.username} placeholder="3-32 个字符，不能是邮箱或手机号" autoComplete="username" maxLength={32} />
      <TextField id="email" label="邮箱" type="email" value={form.email} onChange={set('email')} error={errors.email} placeholder="用于找回密码" autoComplete="email" />
      <TextField id="password" label="密码" type="password" value={form.password} onChange={set('password')} error={errors.password} placeholder="至少 6 位" autoComplete="new-password" />
      <TextField id="confirmation" label="确认密码" type="password" value={form.confirmation} onChange={set('confirmation')} error={errors.confirmation} placeholder="再次输入密码" autoComplete="new-password" />
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
              captcha={captcha.required ? { captcha: form.captcha.trim(), captcha_id: captcha.id } : undefined}
            />
          }
        />
      )}
      <Button htmlType="submit" theme="solid" size="large" block loading={submitting}>
        注册
      </Button>
      <div className="app-auth-links">
        <span />
        <Link to="/auth/login">已有账号？去登录</Link>
      </div>
    </form>
  );
}
