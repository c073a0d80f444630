import { useState, type ReactNode } from 'react';
import { OAUTH_PROVIDERS, oauthApi, type OAuthProvider } from './api';
import { useSettings } from '../settings/use-settings';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { rememberOAuthStart } from './oauth-start';

/**
 * WeChat / QQ sign-in, each only when its settings flag is on. Signing in makes an account for a
 * person new to the site, so `note` (the screen's agreement note) is said under the buttons.
 */
export function OAuthButtons({ redirect, note }: { redirect: string; note?: ReactNode }) {
  const { oauth } = useSettings();
  const [pending, setPending] = useState<OAuthProvider | null>(null);
  const providers = OAUTH_PROVIDERS.filter((p) => oauth?.[p.type] === true);
  if (providers.length === 0) return null;

  const start = async (type: OAuthProvider, label: string) => {
    setPending(type);
    const result = await oauthApi.authorizeUrl(type);
    const url = result.ok ? result.data.url : undefined;
    if (!url || !/^https?:\/\//i.test(url)) {
      setPending(null);
      toastFailure(`${label}失败`, result.ok ? undefined : result);
      return;
    }
    rememberOAuthStart(url, redirect);
    window.location.assign(url);
  };

  return (
    <div className="app-auth-oauth">
      <p className="app-auth-oauth__title">使用第三方账号登录</p>
      <div className="app-auth-oauth__buttons">
        {providers.map((p) => (
          <button
            key={p.type}
            type="button"
            className={`app-auth-oauth__button app-auth-oauth__button--${p.type}`}
            disabled={pending !== null}
            onClick={() => void start(p.type, p.label)}
          >
            {pending === p.type ? '正在跳转…' : p.label}
          </button>
        ))}
      </div>
      {note}
    </div>
  );
}
