import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { safeRedirect } from '../../../shared/access';
import { userApi } from '../features/user/api';
import { CaptchaField, captchaEnabled, useCaptcha } from '../features/auth/CaptchaField';
import { OAuthButtons } from '../features/oauth/OAuthButtons';
import { SignedInNotice } from '../features/auth/SignedInNotice';
import { checkLoginName, checkPassword } from '../features/user/validation';
import { checkRequired, collectErrors, type Errors } from '../kit/forms/checks';
import { completeSignIn } from '../features/session/session-actions';
import { useSession } from '../features/session/use-session';
import { useSettings } from '../features/settings/use-settings';
import { FAILURE_TITLE, toastFailure } from '../kit/toasts/failure-toast';
import { toast } from '../kit/toasts/toast-store';
import { TextField } from '../ui/FormField';
import { Button } from '../ui/semi';

type Field = 'username' | 'password' | 'captcha';

/** `/auth/login`: username and password (and captcha when enabled); back to `redirect` after. */
export function LoginPage() {
  const settings = useSettings();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { loggedIn } = useSession();
  const target = safeRedirect(params.get('redirect'));
  const captcha = useCaptcha('login', captchaEnabled(settings.security, 'login'));
  const [alreadySignedIn] = useState(loggedIn);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [captchaText, setCaptchaText] = useState('');
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [submitting, setSubmitting] = useState(false);

  if (alreadySignedIn) return <SignedInNotice target={target} />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<Field>({
      username: checkLoginName(username),
      password: checkPassword(password),
      captcha: captcha.required ? checkRequired(captchaText, '请输入验证码') : undefined,
    });
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    const result = await userApi.login({
      username: username.trim(),
      password,
      ...(captcha.required ? { captcha: captchaText.trim(), captcha_id: captcha.id } : {}),
    });
    if (!result.ok || !result.data.user) {
      setSubmitting(false);
      toastFailure(FAILURE_TITLE.login, result.ok ? undefined : result);
      if (captcha.required) {
        setCaptchaText('');
        captcha.refresh();
      }
      return;
    }
    await completeSignIn(result.data.user);
    toast.success('登录成功', `欢迎回来，${result.data.user.username ?? ''}`);
    await navigate(target, { replace: true });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="login-title">
      <h1 id="login-title" className="app-auth-title">
        登录
      </h1>
      <TextField id="username" label="用户名" value={username} onChange={setUsername} error={errors.username} placeholder="请输入用户名" autoComplete="username" maxLength={32} />
      <TextField id="password" label="密码" type="password" value={password} onChange={setPassword} error={errors.password} placeholder="请输入密码" autoComplete="current-password" />
      <CaptchaField captcha={captcha} value={captchaText} onChange={setCaptchaText} error={errors.captcha} />
      <Button htmlType="submit" theme="solid" size="large" block loading={submitting}>
        登录
      </Button>
      <div className="app-auth-links">
        <Link to="/auth/forgot">忘记密码？</Link>
        {settings.security?.enable_register && !settings.security.is_close && (
          <Link to={target === '/' ? '/auth/register' : `/auth/register?redirect=${encodeURIComponent(target)}`}>注册账号</Link>
        )}
      </div>
      <OAuthButtons redirect={target} />
    </form>
  );
}
