// Why a visitor was sent to the login page from an action of the reader (下载, 收藏, 评分), of an
// article page (收藏, 举报) or of a comment section (登录后参与评论, a comment's 举报), or why a
// member's session ended (the sign-in-again dialog, decision 079): carried in the history entry's
// state, not in the address (a shared or bookmarked login link says nothing it cannot know), and
// read back only from this fixed list.
import type { UnauthorizedCall } from '../../api/client';
import type { SessionEnd } from '../../../../shared/session-end';

/** What the login page says to a visitor who came for each action. */
export const LOGIN_REASONS = {
  download: '登录后即可下载该文档',
  favorite: '登录后即可收藏或举报该文档',
  rate: '登录后即可为该文档评分',
  favoriteArticle: '登录后即可收藏该文章',
  reportArticle: '登录后即可举报该文章',
  reportComment: '登录后即可举报该评论',
  comment: '登录后即可发表评论',
  sessionExpired: '登录已过期，请重新登录',
  passwordChanged: '您的密码已在其他地方修改，请重新登录',
  accountRemoved: '您的账号已被删除，如有疑问请联系网站管理员',
  loggedOut: '您已退出登录，请重新登录',
} as const;

export type LoginReason = keyof typeof LOGIN_REASONS;

/** The state of the navigation to the login page for `reason` (a <Link>'s or navigate's `state`). */
export function loginReasonState(reason: LoginReason): { loginReason: LoginReason } {
  return { loginReason: reason };
}

/** Why a member's session ended, as the login page says it (docs/decisions/079). */
const SESSION_END_REASONS: Readonly<Record<SessionEnd, LoginReason>> = {
  expired: 'sessionExpired',
  'password-changed': 'passwordChanged',
  'account-removed': 'accountRemoved',
  'logged-out': 'loggedOut',
};

export function loginReasonOfSessionEnd(ended: SessionEnd): LoginReason {
  return SESSION_END_REASONS[ended];
}

/** The API calls whose 401 sends a visitor to log in for a reason of the list: the reader's 下载. */
const CALL_REASONS: Readonly<Record<string, LoginReason>> = { '/api/v1/document/download': 'download' };

/** The reason a call answered 401 brings the visitor to the login page for, if it is one of the list. */
export function loginReasonOfCall(call: UnauthorizedCall): LoginReason | undefined {
  return call.path === undefined ? undefined : CALL_REASONS[call.path];
}

/** What the login page says of a navigation's `state`: a reason of the list, else nothing. */
export function loginReasonText(state: unknown): string | undefined {
  const reason = (state as { loginReason?: unknown } | null)?.loginReason;
  return typeof reason === 'string' && Object.hasOwn(LOGIN_REASONS, reason)
    ? LOGIN_REASONS[reason as LoginReason]
    : undefined;
}
