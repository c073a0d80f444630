// Wire types of user (docs/moredoc.md §12; conventions in ./common.ts).

import type { SmsCodePurpose } from '../constants';
import type { PageRequest } from './common';
import type { Download } from './document';
import type { Group } from './group';
import type { Permission } from './permission';

export interface User {
  id?: number;
  username?: string;
  mobile?: string;
  email?: string;
  address?: string;
  signature?: string;
  last_login_ip?: string;
  register_ip?: string;
  doc_count?: number;
  follow_count?: number;
  fans_count?: number;
  favorite_count?: number;
  comment_count?: number;
  /** Never filled by MOREDOC (no column). */
  status?: number;
  avatar?: string;
  identity?: string;
  realname?: string;
  /** Filled only by `GET /api/v1/user/list`. */
  group_id?: number[];
  credit_count?: number;
  article_count?: number;
  remark?: string;
  /** Ours: only in `GET /api/v1/user` for oneself — an active VIP period. */
  is_vip?: boolean;
  /** Ours: only for oneself — end of the VIP period (also when it has passed). */
  vip_end_at?: string;
  login_at?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Dynamic {
  id?: number;
  user_id?: number;
  /** May contain HTML links. */
  content?: string;
  type?: number;
  username?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Sign {
  id?: number;
  user_id?: number;
  /** Date as the integer YYYYMMDD. */
  sign_at?: number;
  ip?: string;
  award?: number;
  created_at?: string;
}

/** Register and login. Through the gateway the token is moved into the cookie and absent. */
export interface LoginReply {
  token?: string;
  user?: User;
}

export interface GetUserCaptchaReply {
  enable?: boolean;
  id?: string;
  /** base64 `data:` URI (PNG, or WAV for audio). */
  captcha?: string;
  type?: string;
}

export interface GetUserPermissionsReply {
  permission?: Permission[];
}

export interface ListUserReply { total?: number; user?: User[] }

export interface ListUserGroupReply { group?: Group[] }

export interface ListUserDownloadReply { total?: number; download?: Download[] }

export interface ListUserDynamicReply { total?: number; dynamic?: Dynamic[] }

export interface RegisterAndLoginRequest {
  username: string;
  password: string;
  captcha?: string;
  captcha_id?: string;
  email?: string;
  /** E-mailed registration code, when the security config requires it. */
  code?: string;
}

export type RegisterRequest = RegisterAndLoginRequest;

export type LoginRequest = RegisterAndLoginRequest;

/** No id (or 0) = the caller. */
export interface GetUserRequest { id?: number }

export interface UpdateUserPasswordRequest {
  /** Omitted = own password (then `old_password` is checked). */
  id?: number;
  old_password?: string;
  new_password: string;
}

/** Writes mobile, email, address, signature, avatar, realname, identity (and remark for admins). */
export type UpdateUserProfileRequest = User & { id: number };

export interface DeleteUserRequest {
  id: number[];
  /** The caller's own password. */
  password: string;
}

/** AddUser (`POST /api/v1/user`) and SetUser (`PUT /api/v1/user`). */
export interface SetUserRequest {
  id?: number;
  username?: string;
  password?: string;
  group_id?: number[];
  email?: string;
}

export interface ListUserRequest extends PageRequest {
  sort?: string;
  id?: number[];
  group_id?: number[];
  status?: number[];
  limit?: number;
}

/** `sms`: the captcha in front of SendSmsCode (ours); `feedback`: a visitor's feedback (ours). */
export type CaptchaType = 'register' | 'login' | 'find_password' | 'comment' | 'sms' | 'feedback';

export interface GetUserCaptchaRequest { type: CaptchaType }

export interface ListUserDownloadRequest { page?: number; size?: number }

export interface ListUserDynamicRequest { page?: number; size?: number }

/** Step one uses email + captcha; step two email, token, password + captcha. */
export interface FindPasswordRequest {
  email?: string;
  token?: string;
  password?: string;
  captcha?: string;
  captcha_id?: string;
}

export interface SendEmailCodeRequest {
  email: string;
  captcha?: string;
  captcha_id?: string;
  /** 0 register (the only one that works), 1 login. */
  type?: number;
}

// Ours (docs/api.md §6): mobile numbers and SMS codes. Numbers are mainland mobile numbers
// in any usual spelling (`+86 138-1234-5678`); the backend stores them normalised.

/** `POST /api/v1/user/sms/code`: `bind` needs a login; the captcha when `security.enable_captcha_sms`. */
export interface SendSmsCodeRequest {
  mobile: string;
  type: SmsCodePurpose;
  captcha?: string;
  captcha_id?: string;
}

export interface SendSmsCodeReply {
  /** Seconds before the next code to this number may be asked for. */
  interval?: number;
}

/** `POST /api/v1/user/register/mobile` → LoginReply; without `username` one is made up. */
export interface MobileRegisterRequest {
  mobile: string;
  code: string;
  username?: string;
  password: string;
}

/** `POST /api/v1/user/login/mobile` → MobileLoginReply. */
export interface MobileLoginRequest {
  mobile: string;
  code: string;
}

/** LoginReply, and whether the sign-in created the account (a number without one, while registration is open). */
export interface MobileLoginReply extends LoginReply {
  registered?: boolean;
}

/** `PUT /api/v1/user/findpassword/mobile`. */
export interface MobileFindPasswordRequest {
  mobile: string;
  code: string;
  password: string;
}

/** `PUT /api/v1/user/mobile`: binds (or changes to) the number the code was sent to. */
export interface BindMobileRequest {
  mobile: string;
  code: string;
}
