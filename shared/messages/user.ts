import { message } from '../wire';
import { Group } from './group';
import { Permission } from './permission';

// UserAPI's messages (docs/moredoc.md §12, fields in .proto declaration order, which
// is the key order of our JSON). `User` is also encoded inside other services' replies.

export const User = message('User', {
  login_at: 'time',
  created_at: 'time',
  updated_at: 'time',
  id: 'int64',
  username: 'string',
  mobile: 'string',
  email: 'string',
  address: 'string',
  signature: 'string',
  last_login_ip: 'string',
  register_ip: 'string',
  doc_count: 'int32',
  follow_count: 'int32',
  fans_count: 'int32',
  favorite_count: 'int32',
  comment_count: 'int32',
  status: 'int32',
  avatar: 'string',
  identity: 'string',
  realname: 'string',
  group_id: 'int64[]',
  credit_count: 'int32',
  article_count: 'int32',
  remark: 'string',
  // Ours (docs/api.md §6): filled only in GetUser for oneself.
  is_vip: 'bool',
  vip_end_at: 'time',
});

export const Dynamic = message('Dynamic', {
  id: 'int64',
  user_id: 'int64',
  content: 'string',
  type: 'int32',
  username: 'string',
  created_at: 'time',
  updated_at: 'time',
});

export const Sign = message('Sign', {
  id: 'int64',
  user_id: 'int64',
  sign_at: 'int32',
  ip: 'string',
  created_at: 'time',
  award: 'int32',
});

/** Ours: today's check-in of the caller, `{}` before it (MOREDOC's GetSignedToday answers a 404 then). */
export const SignedToday = message('SignedToday', { sign: Sign });

export const LoginReply = message('LoginReply', { token: 'string', user: User });
export const RegisterAndLoginRequest = message('RegisterAndLoginRequest', {
  username: 'string',
  password: 'string',
  captcha: 'string',
  captcha_id: 'string',
  email: 'string',
  code: 'string',
});
export const GetUserCaptchaRequest = message('GetUserCaptchaRequest', { type: 'string' });
export const GetUserCaptchaReply = message('GetUserCaptchaReply', {
  enable: 'bool',
  id: 'string',
  captcha: 'string',
  type: 'string',
});
export const FindPasswordRequest = message('FindPasswordRequest', {
  email: 'string',
  token: 'string',
  password: 'string',
  captcha: 'string',
  captcha_id: 'string',
});
export const SendEmailCodeRequest = message('SendEmailCodeRequest', {
  email: 'string',
  captcha: 'string',
  captcha_id: 'string',
  type: { enum: { EmailCodeTypeRegister: 0, EmailCodeTypeLogin: 1 } },
});

// Ours (docs/api.md §6): sign-up, sign-in, password reset and binding by SMS code.
export const SendSmsCodeRequest = message('SendSmsCodeRequest', {
  mobile: 'string',
  type: 'string',
  captcha: 'string',
  captcha_id: 'string',
});
export const SendSmsCodeReply = message('SendSmsCodeReply', { interval: 'int32' });
export const MobileRegisterRequest = message('MobileRegisterRequest', {
  mobile: 'string',
  code: 'string',
  username: 'string',
  password: 'string',
});
export const MobileLoginRequest = message('MobileLoginRequest', { mobile: 'string', code: 'string' });
export const MobileLoginReply = message('MobileLoginReply', { token: 'string', user: User, registered: 'bool' });
export const MobileFindPasswordRequest = message('MobileFindPasswordRequest', {
  mobile: 'string',
  code: 'string',
  password: 'string',
});
export const BindMobileRequest = message('BindMobileRequest', { mobile: 'string', code: 'string' });

export const GetUserRequest = message('GetUserRequest', { id: 'int64' });
export const UpdateUserPasswordRequest = message('UpdateUserPasswordRequest', {
  id: 'int64',
  old_password: 'string',
  new_password: 'string',
});
export const DeleteUserRequest = message('DeleteUserRequest', { id: 'int64[]', password: 'string' });
export const SetUserRequest = message('SetUserRequest', {
  id: 'int64',
  username: 'string',
  password: 'string',
  group_id: 'int64[]',
  email: 'string',
});
/** Ours (docs/decisions/076): `amount` credits added to user `id`, or taken away when negative, for `reason`. */
export const AdjustUserCreditRequest = message('AdjustUserCreditRequest', {
  id: 'int64',
  amount: 'int32',
  reason: 'string',
});
export const ListUserRequest = message('ListUserRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  sort: 'string',
  id: 'int64[]',
  group_id: 'int64[]',
  status: 'int32[]',
  limit: 'int64',
  field: 'string[]',
});
export const ListUserReply = message('ListUserReply', { total: 'int64', user: [User] });

export const GetUserPermissionsReply = message('GetUserPermissionsReply', { permission: [Permission] });
export const ListUserDynamicReply = message('ListUserDynamicReply', { total: 'int64', dynamic: [Dynamic] });
export const ListUserGroupReply = message('ListUserGroupReply', { group: [Group] });
