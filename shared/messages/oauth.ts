import { message } from '../wire';

// OAuthAPI's messages (ours, docs/api.md §5); Login answers UserAPI's LoginReply.

export const AuthorizeRequest = message('OAuthAuthorizeRequest', { type: 'string' });
export const AuthorizeReply = message('OAuthAuthorizeReply', { url: 'string' });
export const OAuthLoginRequest = message('OAuthLoginRequest', { type: 'string', code: 'string', state: 'string' });
