// Wire types of oauth (ours, docs/api.md §5; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as oauthMessages from '../messages/oauth';

export type OAuthProvider = 'wechat' | 'qq';

// The SPA sends only the providers it offers.
export type OAuthAuthorizeRequest = Wire<typeof oauthMessages.AuthorizeRequest> & { type: OAuthProvider };

/** The provider's sign-in page, with a single-use `state`. */
export type OAuthAuthorizeReply = Wire<typeof oauthMessages.AuthorizeReply>;

/** The callback's query, handed on; answers UserAPI's LoginReply. */
// The callback screen knows its provider from its address.
export type OAuthLoginRequest = Wire<typeof oauthMessages.OAuthLoginRequest> & { type: OAuthProvider };
