// The end of a social sign-in, at `/oauth/callback`: the provider's code is exchanged for a
// login, only for the sign-in this browser started.
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '../../kit/toasts/toast-store';
import { PageLoading } from '../../ui/PageLoading';
import { ErrorState } from '../../ui/states';
import { completeSignIn } from '../session/session-actions';
import { oauthApi } from './api';
import { pendingOAuthState, takeOAuthStart } from './oauth-start';

/** Why a callback cannot complete before asking the server, or null when it can. */
export function callbackProblem(params: URLSearchParams, expectedState: string | null): string | null {
  const error = params.get('error') ?? params.get('error_description');
  if (error)
    return error === 'access_denied'
      ? '您已取消授权'
      : `第三方平台返回错误：${params.get('error_description') ?? error}`;
  if (!params.get('code')) return '授权已被取消或链接无效（缺少授权码）';
  if (!params.get('state')) return '登录请求无效或已过期（缺少 state）';
  // Only the sign-in this browser started may complete here (no login CSRF).
  if (params.get('state') !== expectedState) return '登录请求无效或已过期，请从登录页重新发起第三方登录';
  return null;
}

/** Completes the WeChat/QQ login of the callback URL's parameters, or says why it failed. */
export function OAuthCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(() => callbackProblem(params, pendingOAuthState()));
  const started = useRef(false);

  useEffect(() => {
    // One exchange per code, even under StrictMode's double effects: a code is single-use.
    if (started.current || callbackProblem(params, pendingOAuthState())) return;
    started.current = true;
    const { redirect: target } = takeOAuthStart();
    void (async () => {
      const result = await oauthApi.login({
        type: params.get('type') ?? '',
        code: params.get('code') ?? '',
        state: params.get('state') ?? '',
      });
      if (!result.ok || !result.data.user) {
        setFailure(result.ok ? '登录失败：服务器没有返回用户信息' : result.data.message);
        return;
      }
      await completeSignIn(result.data.user);
      toast.success('登录成功', `欢迎，${result.data.user.username ?? ''}`);
      await navigate(target, { replace: true });
    })();
  }, [params, navigate]);

  if (!failure) return <PageLoading tip="正在完成第三方登录…" />;
  return (
    <div className="app-container app-panel">
      <h1 className="app-panel__title">第三方登录失败</h1>
      <ErrorState message={failure} />
      <p className="app-state">
        <Link to="/auth/login">返回登录</Link>
      </p>
    </div>
  );
}
