// Wire types of oauth (ours, docs/api.md §5; conventions in ./common.ts).

export type OAuthProvider = 'wechat' | 'qq';

export interface OAuthAuthorizeRequest { type: OAuthProvider }

/** The provider's sign-in page, with a single-use `state`. */
export interface OAuthAuthorizeReply { url?: string }

/** The callback's query, handed on; answers UserAPI's LoginReply. */
export interface OAuthLoginRequest {
  type: OAuthProvider;
  code: string;
  state: string;
}
