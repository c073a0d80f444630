import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { loginLocation, registerLocation } from '../../../../shared/access';
import { captchaEnabled, useCaptcha } from '../../features/auth/CaptchaField';
import { MobileResetForm } from '../../features/auth/MobileResetForm';
import { useAuthTarget } from '../../features/auth/sign-in';
import { RequestResetForm, ResetPasswordForm } from '../../features/auth/PasswordResetForms';
import { useSmsEnabled } from '../../features/auth/SmsCode';
import { useSettings } from '../../features/settings/use-settings';
import { TabSwitch } from '../../ui/TabSwitch';

const WAYS = [
  { key: 'email', label: '邮箱找回' },
  { key: 'mobile', label: '手机找回' },
] as const;

/**
 * `/auth/forgot`: both steps of find-password by e-mail while the site can mail its link (mail
 * on, 网站域名 set), the reset by SMS code while it sends SMS, tabs when both; neither says
 * whom to ask. The link's second step always works.
 */
export function ForgotPasswordPage() {
  const { security, system, email: mail, display } = useSettings();
  const smsEnabled = useSmsEnabled();
  const mailEnabled = mail?.enable === true && Boolean(system?.domain?.trim());
  const [params] = useSearchParams();
  // Led here from a login that was to return somewhere (a document): so is the login after.
  const { target } = useAuthTarget();
  const [chosen, setWay] = useState<'email' | 'mobile'>('email');
  const way = mailEnabled ? (smsEnabled ? chosen : 'email') : 'mobile';
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const captcha = useCaptcha('find_password', captchaEnabled(security, 'find_password'));
  const fromLink = email !== '' && token !== '';
  return (
    <section aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="app-auth-title">
        找回密码
      </h1>
      {smsEnabled && mailEnabled && !fromLink && (
        <TabSwitch label="找回方式" tabs={WAYS} active={way} onChange={setWay} />
      )}
      {fromLink ? (
        <ResetPasswordForm email={email} token={token} captcha={captcha} />
      ) : smsEnabled && way === 'mobile' ? (
        <MobileResetForm target={target} />
      ) : mailEnabled ? (
        <RequestResetForm key={email} captcha={captcha} initialEmail={email} />
      ) : (
        <div className="app-auth-note" role="status">
          <p>本站暂未开通邮箱或短信找回密码，请联系网站管理员重置密码。</p>
          {display?.contact_link && <a href={display.contact_link}>联系我们</a>}
        </div>
      )}
      <div className="app-auth-links">
        <Link to={loginLocation(target)}>返回登录</Link>
        {security?.enable_register && <Link to={registerLocation(target)}>注册账号</Link>}
      </div>
    </section>
  );
}
