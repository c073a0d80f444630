import { OAuthCallback } from '../../features/oauth/OAuthCallback';

/** `/oauth/callback`: completes a WeChat/QQ login, or says why it failed. */
export function OAuthCallbackPage() {
  return <OAuthCallback />;
}
