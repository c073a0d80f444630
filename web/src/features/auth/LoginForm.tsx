// The login screen's forms: username (or e-mail address, or bound mobile number) and password (and the captcha
// when enabled), or, when the site sends SMS, a mobile number and the code sent to it; then
// back to `target`.
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { forgotPasswordLocation, registerLocation, siteSwitchesFrom } from '../../../../shared/access';
import { EMAIL_MAX_LENGTH } from '../../../../shared/validation';
import { FAILURE_TITLE } from '../../kit/toasts/failure-toast';
import { TextField } from '../../ui/FormField';
import { Notice } from '../../ui/Notice';
import { TabSwitch } from '../../ui/TabSwitch';
import { OAuthButtons } from '../oauth/OAuthButtons';
import { closeStatement } from '../settings/close-statement';
import { useSettings } from '../settings/use-settings';
import { userApi } from '../user/api';
import { checkLoginName, checkPassword } from '../user/validation';
import {
  CaptchaField,
  captchaEnabled,
  captchaFields,
  captchaProblem,
  isCaptchaRefusal,
  useCaptcha,
} from './CaptchaField';
import { MobileLoginForm } from './MobileLoginForm';
import { AgreementNote } from './AgreementNote';
import { loginReasonText } from './login-reason';
import { useSignInForm, type SignInTarget } from './sign-in';
import { useSmsEnabled } from './SmsCode';
import { AuthSubmitButton } from './AuthFields';

type Field = 'username' | 'password' | 'captcha';
type Mode = 'password' | 'sms';

const MODES = [
  { key: 'password', label: '密码登录' },
  { key: 'sms', label: '短信登录' },
] as const;

/**
 * Username (or e-mail address, or mobile number) and password. `idPrefix` sets its fields apart
 * from the fields of a screen under it (the sign-in-again dialog over the profile's 用户名), which
 * fills in the name it knows (`initialUsername`).
 */
export function PasswordLoginForm({
  target,
  idPrefix = '',
  initialUsername = '',
}: {
  target: SignInTarget;
  idPrefix?: string;
  initialUsername?: string;
}) {
  const settings = useSettings();
  const captcha = useCaptcha('login', captchaEnabled(settings.security, 'login'));
  const { errors, submitting, submit: signIn, formRef } = useSignInForm<Field>(target);
  const [username, setUsername] = useState(initialUsername);
  const [password, setPassword] = useState('');
  const [captchaText, setCaptchaText] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refused = await signIn(
      {
        username: checkLoginName(username),
        password: checkPassword(password),
        captcha: captchaProblem(captcha, captchaText),
      },
      () => userApi.login({ username: username.trim(), password, ...captchaFields(captcha, captchaText) }),
      { failure: FAILURE_TITLE.login, success: '登录成功', welcome: '欢迎回来' },
    );
    // A right captcha stays valid after a wrong password (the server allows a few attempts):
    // only a refused captcha is replaced.
    if (refused && captcha.required && isCaptchaRefusal(refused)) {
      setCaptchaText('');
      captcha.refresh();
    }
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        id={`${idPrefix}username`}
        label="用户名"
        value={username}
        onChange={setUsername}
        error={errors.username}
        placeholder="用户名、邮箱或手机号"
        autoComplete="username"
        maxLength={EMAIL_MAX_LENGTH}
      />
      <TextField
        id={`${idPrefix}password`}
        label="密码"
        type="password"
        value={password}
        onChange={setPassword}
        error={errors.password}
        placeholder="请输入密码"
        autoComplete="current-password"
      />
      <CaptchaField
        id={`${idPrefix}captcha`}
        captcha={captcha}
        value={captchaText}
        onChange={setCaptchaText}
        error={errors.captcha}
      />
      <AuthSubmitButton submitting={submitting}>登录</AuthSubmitButton>
    </form>
  );
}

export function LoginForm({ target }: { target: string }) {
  const settings = useSettings();
  const smsEnabled = useSmsEnabled();
  const [mode, setMode] = useState<Mode>('password');
  const site = siteSwitchesFrom(settings);
  const registrationOpen = settings.security?.enable_register === true && !site.closed;
  const smsForm = smsEnabled && mode === 'sms';
  const reason = loginReasonText(useLocation().state);

  return (
    <section aria-labelledby="login-title">
      <h1 id="login-title" className="app-auth-title">
        登录
      </h1>
      {site.closed ? (
        // Visitors of a closed site land here from every page: say why, and who may still sign in.
        <div className="app-auth-notice" data-testid="login-site-closed">
          <Notice
            type="warning"
            description={
              <>
                <strong>站点已关闭</strong>
                {closeStatement(settings).map((line, i) => (
                  <p key={i}>{line}</p>
                ))}
                <p>目前仅管理员可以登录。</p>
              </>
            }
          />
        </div>
      ) : site.loginRequired ? (
        // So do the visitors of a site open to members only.
        <div className="app-auth-notice" data-testid="login-required">
          <Notice
            type="info"
            description={
              settings.security?.enable_register
                ? '本站需登录后才能访问，请登录或注册账号。'
                : '本站需登录后才能访问，请登录。'
            }
          />
        </div>
      ) : (
        // A visitor sent here by an action (the reader's 下载, an article's 收藏, ...) reads what the login is for.
        reason && (
          <div className="app-auth-notice">
            <Notice type="info" description={reason} />
          </div>
        )
      )}
      {smsEnabled && <TabSwitch label="登录方式" tabs={MODES} active={mode} onChange={setMode} />}
      {smsForm ? <MobileLoginForm target={target} /> : <PasswordLoginForm target={target} />}
      <div className="app-auth-links">
        <Link to={forgotPasswordLocation(target)}>忘记密码？</Link>
        {registrationOpen && <Link to={registerLocation(target)}>注册账号</Link>}
      </div>
      {/* A person new to the site gets an account by WeChat or QQ; the SMS form says it above. */}
      <OAuthButtons redirect={target} note={registrationOpen && !smsForm && <AgreementNote />} />
    </section>
  );
}
