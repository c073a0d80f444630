import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { captchaEnabled, useCaptcha } from '../../features/auth/CaptchaField';
import { MobileResetForm } from '../../features/auth/MobileResetForm';
import { RequestResetForm, ResetPasswordForm } from '../../features/auth/PasswordResetForms';
import { useSmsEnabled } from '../../features/auth/SmsCode';
import { useSettings } from '../../features/settings/use-settings';
import { TabSwitch } from '../../ui/TabSwitch';

const WAYS = [
  { key: 'email', label: '邮箱找回' },
  { key: 'mobile', label: '手机找回' },
] as const;

/** `/auth/forgot`: both steps of find-password by e-mail, or the reset by SMS code when the site sends SMS. */
export function ForgotPasswordPage() {
  const { security } = useSettings();
  const smsEnabled = useSmsEnabled();
  const [params] = useSearchParams();
  const [way, setWay] = useState<'email' | 'mobile'>('email');
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const captcha = useCaptcha('find_password', captchaEnabled(security, 'find_password'));
  const fromLink = email !== '' && token !== '';
  return (
    <section aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="app-auth-title">
        找回密码
      </h1>
      {smsEnabled && !fromLink && <TabSwitch label="找回方式" tabs={WAYS} active={way} onChange={setWay} />}
      {fromLink ? (
        <ResetPasswordForm email={email} token={token} captcha={captcha} />
      ) : smsEnabled && way === 'mobile' ? (
        <MobileResetForm />
      ) : (
        <RequestResetForm captcha={captcha} />
      )}
      <div className="app-auth-links">
        <Link to="/auth/login">返回登录</Link>
        {security?.enable_register && <Link to="/auth/register">注册账号</Link>}
      </div>
    </section>
  );
}
