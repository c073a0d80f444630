// Social sign-in (docs/product.md §1: WeChat and QQ, each switched by a settings flag). MOREDOC has no
// OAuth API; these two calls are ours (docs/api.md of the backend): the first gives the
// provider's authorisation URL, the second exchanges the callback's code for a login.
import type { User } from '../../../../shared/types/user';
import { api } from '../../api/client';

export type OAuthProvider = 'wechat' | 'qq';

export const OAUTH_PROVIDERS: readonly { type: OAuthProvider; label: string }[] = [
  { type: 'wechat', label: '微信登录' },
  { type: 'qq', label: 'QQ 登录' },
];

export const oauthApi = {
  authorizeUrl: (type: OAuthProvider) => api.get<{ url?: string }>('/api/v1/oauth/authorize', { type }),
  login: (input: { type: string; code: string; state: string }) =>
    api.post<{ user?: User }>('/api/v1/oauth/login', input),
};
