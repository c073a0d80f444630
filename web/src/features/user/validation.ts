// Checks of account fields run before anything is sent: the backend's own rules from
// shared/validation, with the messages for empty fields that only a form needs.
import {
  EMAIL_TAKEN,
  MOBILE_ALREADY_YOURS,
  MOBILE_TAKEN,
  SMS_CODE_PATTERN,
  USERNAME_TAKEN,
  USERNAME_LENGTH,
  emailProblems,
  mobileProblems,
  normalizeMainlandMobile,
  passwordProblems,
  usernameProblems,
} from '../../../../shared/validation';

/** Registration: the server's username rules (shared/validation), first problem only. */
export function checkUsername(value: string): string | undefined {
  const name = value.trim();
  if (!name) return '请输入用户名';
  return usernameProblems(name)[0];
}

/**
 * Login accepts any existing name, an e-mail address or a bound mobile number, so only
 * presence, the address's form and the server's length bounds are checked.
 */
export function checkLoginName(value: string): string | undefined {
  const name = value.trim();
  if (!name) return '请输入用户名、邮箱或手机号';
  if (normalizeMainlandMobile(name)) return undefined;
  if (name.includes('@')) return emailProblems(name, true)[0];
  const length = [...name].length;
  if (length < USERNAME_LENGTH.min || length > USERNAME_LENGTH.max) return usernameProblems(name)[0];
  return undefined;
}

/** The field a refusal for a taken name or address concerns (用户名已存在: the 用户名), if any. */
export function takenField(message: string): 'username' | 'email' | undefined {
  if (message === USERNAME_TAKEN) return 'username';
  if (message === EMAIL_TAKEN) return 'email';
  return undefined;
}

/** The field of the number binding a refusal of the number concerns (该手机号已绑定其他账号), if any. */
export function boundMobileField(message: string): 'mobile' | undefined {
  return message === MOBILE_TAKEN || message === MOBILE_ALREADY_YOURS ? 'mobile' : undefined;
}

/**
 * Whether a refusal concerns the SMS code typed (the backend's sms/codes.ts: 短信验证码错误，还可尝试N次,
 * 短信验证码已过期，请重新获取, 请先获取短信验证码…), which the form says under its code field.
 */
export function smsCodeField(message: string): 'code' | undefined {
  return /^(请先获取|请输入 6 位数字)?短信验证码/.test(message) ? 'code' : undefined;
}

export function checkPassword(value: string, label = '密码'): string | undefined {
  if (!value) return `请输入${label}`;
  return passwordProblems(value, label)[0];
}

export function checkConfirmation(password: string, confirmation: string): string | undefined {
  if (!confirmation) return '请再次输入密码';
  if (password !== confirmation) return '两次输入的密码不一致';
  return undefined;
}

export function checkEmail(value: string, required = true): string | undefined {
  const email = value.trim();
  if (!email) return required ? '请输入邮箱' : undefined;
  return emailProblems(email, required)[0];
}

/** A mainland mobile number in any usual spelling (`+86 138-1234-5678`); empty only when not `required`. */
export function checkMobile(value: string, required = false): string | undefined {
  return mobileProblems(value, required)[0];
}

export function checkSmsCode(value: string): string | undefined {
  const code = value.trim();
  if (!code) return '请输入短信验证码';
  return SMS_CODE_PATTERN.test(code) ? undefined : '请输入 6 位数字短信验证码';
}
