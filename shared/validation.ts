// Input rules both sides apply: the backend refuses with these messages (joined with `；`
// like MOREDOC's validator), the SPA shows the first one before anything is sent.
import { COPYRIGHT_REPORT_REASON } from './constants';

export const USERNAME_LENGTH = { min: 3, max: 32 } as const;
export const PASSWORD_LENGTH = { min: 6, max: 128 } as const;
export const EMAIL_MAX_LENGTH = 128;

export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
/** A mainland China mobile number, normalised (11 digits, no country code). */
export const MAINLAND_MOBILE_PATTERN = /^1[3-9]\d{9}$/;

const length = (value: string) => [...value].length;

/** Username rules of RegisterAndLoginRequest / SetUserRequest (and the usernames of sign-ups by SMS and OAuth). */
export function usernameProblems(username: string): string[] {
  const problems: string[] = [];
  const n = length(username);
  if (n < USERNAME_LENGTH.min || n > USERNAME_LENGTH.max) {
    problems.push(`用户名长度必须在 ${USERNAME_LENGTH.min} 到 ${USERNAME_LENGTH.max} 个字符之间`);
  }
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\s\u0000-\u001f\u007f]/.test(username)) problems.push('用户名不能包含空白或控制字符');
  // A number in any spelling a login reads as one (`139-0013-9001`, `+8613900139000`): such a
  // name could never sign in, a login takes it for the bound mobile number.
  if (username.includes('@') || normalizeMainlandMobile(username) !== null)
    problems.push('出于隐私保护，用户名不能是邮箱或手机号码');
  return problems;
}

/** The 409s of a name or address someone has already: the SPA shows them under that field. */
export const USERNAME_TAKEN = '用户名已存在';
export const EMAIL_TAKEN = '邮箱已存在';
/** BindMobile's refusals of the number typed (another account's, or already the caller's): said under it. */
export const MOBILE_TAKEN = '该手机号已绑定其他账号';
export const MOBILE_ALREADY_YOURS = '该手机号已绑定当前账号';

/** UpdateUserPassword's 400 for a wrong old password: the SPA shows it under that field. */
export const WRONG_OLD_PASSWORD = '原密码不正确';

/** `label` names the field in the message (`新密码长度必须在…`). */
export function passwordProblems(password: string, label = '密码'): string[] {
  const n = length(password);
  return n < PASSWORD_LENGTH.min || n > PASSWORD_LENGTH.max
    ? [`${label}长度必须在 ${PASSWORD_LENGTH.min} 到 ${PASSWORD_LENGTH.max} 个字符之间`]
    : [];
}

export function emailProblems(email: string, required: boolean): string[] {
  if (email === '') return required ? ['邮箱不能为空'] : [];
  return EMAIL_PATTERN.test(email) && email.length <= EMAIL_MAX_LENGTH ? [] : ['邮箱格式不正确'];
}

/**
 * A mobile number as members type it (any spelling normalizeMainlandMobile takes); '' is a problem only when
 * `required`.
 */
export function mobileProblems(mobile: string, required: boolean): string[] {
  if (mobile.trim() === '') return required ? ['请输入手机号码'] : [];
  return normalizeMainlandMobile(mobile) ? [] : ['请输入正确的中国大陆手机号码'];
}

/**
 * A mainland mobile number in its stored form (`13812345678`): spaces and dashes dropped,
 * a `+86`/`0086`/`86` prefix removed; null when it is not a mainland mobile number.
 */
export function normalizeMainlandMobile(input: string): string | null {
  const digits = input
    .trim()
    .replace(/[\s-]/g, '')
    .replace(/^(\+86|0086|86)(?=1\d{10}$)/, '');
  return MAINLAND_MOBILE_PATTERN.test(digits) ? digits : null;
}

/** `13812345678` → `138****5678`: how logs and the admin screens show a number. */
export function maskMobile(mobile: string): string {
  return mobile.length >= 8 ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : '****';
}

/** An SMS verification code as members type it: exactly six digits. */
export const SMS_CODE_PATTERN = /^\d{6}$/;
/** Lengths in characters of what members and visitors write (articles, comments, reports, feedback). */
export const ARTICLE_LIMITS = {
  title: 200,
  identifier: 64,
  keywords: 255,
  description: 500,
  content: 200_000,
} as const;
export const COMMENT_MAX_LENGTH = 1000;
/**
 * How a reply to a reply starts: the thread is two levels deep (it hangs under the thread's first comment), so
 * its text names the member it answers, and the backend tells that member once it is visible.
 */
export const replyPrefix = (username: string) => `回复 @${username}：`;
export const REPORT_REMARK_MAX_LENGTH = 500;
export const FEEDBACK_LIMITS = { content: 2000, contact: 100, reply: 2000 } as const;

// eslint-disable-next-line no-control-regex -- line breaks in a one-line name are what we replace
const LINE_BREAKS = /[\t\n\u000b\u000c\r\u0085\u2028\u2029]+/g;
/** C0 and C1 controls, DEL, and the bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069). */
// eslint-disable-next-line no-control-regex -- these are the characters a name loses
const INVISIBLE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A one-line name or title as it is stored (document and article titles, uploaded file
 * names, usernames, category, navigation and other names): tabs and line breaks become a
 * space, the other control characters and the bidi overrides and isolates go (they would let
 * `report\u202Etxt.exe` read as `reportexe.txt`), and the ends are trimmed.
 */
export function cleanName(value: string): string {
  return value.replace(LINE_BREAKS, ' ').replace(INVISIBLE_IN_NAME, '').trim();
}

/**
 * The problems of a name once cleaned (`cleanName`): made only of what cleaning removes
 * (`label不能只包含控制字符或文字方向符号`, required or not: nothing readable was sent), blank
 * when required (`label不能为空`; an optional name may be left '' or blank), longer than `max`.
 */
export function nameProblems(value: string, label: string, max: number, required = true): string[] {
  const name = cleanName(value);
  if (name === '') {
    if (value.trim() !== '') return [`${label}不能只包含控制字符或文字方向符号`];
    return required ? [`${label}不能为空`] : [];
  }
  return length(name) > max ? [`${label}长度不能超过 ${max} 个字符`] : [];
}

/** `label不能为空` when required and blank, `label长度不能超过N个字符` when longer than `max`. */
export function textProblems(value: string, label: string, max: number, required = false): string[] {
  if (required && value.trim() === '') return [`${label}不能为空`];
  return length(value) > max ? [`${label}长度不能超过 ${max} 个字符`] : [];
}

/**
 * The reader's words on a report (举报说明): optional, except for a copyright report, which
 * must say who holds the rights and how to reach them.
 */
export function reportRemarkProblems(remark: string, reason: number | undefined): string[] {
  if (reason === COPYRIGHT_REPORT_REASON && remark.trim() === '')
    return ['侵权举报请在补充说明中写明权利人、权属证明和联系方式'];
  return textProblems(remark, '举报说明', REPORT_REMARK_MAX_LENGTH);
}

/**
 * Article identifiers (`about`, `vip-rules`): letters, digits, `_` and `-`, starting with a
 * letter or digit, not all digits (an all-digit key in `/article/detail/{id}` is an id).
 */
export function articleIdentifierProblems(identifier: string): string[] {
  if (identifier === '') return [];
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(identifier) || length(identifier) > ARTICLE_LIMITS.identifier) {
    return [`文章标识只能包含字母、数字、下划线和短横线，以字母或数字开头，最多 ${ARTICLE_LIMITS.identifier} 个字符`];
  }
  return /^[0-9]+$/.test(identifier) ? ['文章标识不能是纯数字'] : [];
}
