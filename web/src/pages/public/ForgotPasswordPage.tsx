import { Link, useSearchParams } from 'react-router-dom';
import { captchaEnabled, useCaptcha } from '../../features/auth/CaptchaField';
import { RequestResetForm, ResetPasswordForm } from '../../features/auth/PasswordResetForms';
import { useSettings } from '../../features/settings/use-settings';

/** `/auth/forgot`: both steps of find-password. */
export function ForgotPasswordPage() {
  const { security } = useSettings();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const captcha = useCaptcha('find_password', captchaEnabled(security, 'find_password'));
  return (
    <section aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="app-auth-title">
        找回密码
      </h1>
      {email && token ? <ResetPasswordForm email={email} token={token} captcha={captcha} /> : <RequestResetForm captcha={captcha} />}
      <div className="app-auth-links">
        <Link to="/auth/login">返回登录</Link>
        {security?.enable_register && <Link to="/auth/register">注册账号</Link>}
      </div>
    </section>
  );
}
