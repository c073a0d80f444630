// Input checks run before anything is sent, mirroring the backend's rules
// (contract: UserAPI.Register/Login, FindPassword, UpdateUserPassword) with Chinese messages.

export type Errors<K extends string> = Partial<Record<K, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;

export function checkUsername(value: string): string | undefined {
  const name = value.trim();
  if (!name) return '请输入用户名';
  const length = [...name].length;
  if (length < 3 || length > 32) return '用户名长度为 3-32 个字符';
  if (EMAIL.test(name) || MAINLAND_MOBILE.test(name)) return '出于隐私保护，用户名不能是邮箱或手机号码';
  return undefined;
}

/** Login accepts any existing name, so only presence and the server's length bounds are checked. */
export function checkLoginName(value: string): string | undefined {
  const name = value.trim();
  if (!name) return '请输入用户名';
  const length = [...name].length;
  if (length < 3 || length > 32) return '用户名长度为 3-32 个字符';
  return undefined;
}

export function checkPassword(value: string, label = '密码'): string | undefined {
  if (!value) return `请输入${label}`;
  if (value.length < 6) return `${label}长度不能少于 6 位`;
  return undefined;
}

export function checkConfirmation(password: string, confirmation: string): string | undefined {
  if (!confirmation) return '请再次输入密码';
  if (password !== confirmation) return '两次输入的密码不一致';
  return undefined;
}

export function checkEmail(value: string, required = true): string | undefined {
  const email = value.trim();
  if (!email) return required ? '请输入邮箱' : undefined;
  if (!EMAIL.test(email) || email.length > 254) return '邮箱格式不正确';
  return undefined;
}

export function checkMobile(value: string): string | undefined {
  const mobile = value.trim();
  if (!mobile) return undefined;
  if (!/^\+?[0-9][0-9 -]{5,19}$/.test(mobile)) return '手机号码格式不正确';
  return undefined;
}

export function checkRequired(value: string, message: string): string | undefined {
  return value.trim() ? undefined : message;
}

export function checkMaxLength(value: string, max: number, label: string): string | undefined {
  return [...value].length > max ? `${label}不能超过 ${max} 个字符` : undefined;
}

/** The errors that are set, or null when the form is valid. */
export function collectErrors<K extends string>(checks: Record<K, string | undefined>): Errors<K> | null {
  const errors: Errors<K> = {};
  let invalid = false;
  for (const key of Object.keys(checks) as K[]) {
    if (checks[key]) {
      errors[key] = checks[key];
      invalid = true;
    }
  }
  return invalid ? errors : null;
}
