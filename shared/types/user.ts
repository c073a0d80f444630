// Wire types of user (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as downloadMessages from '../messages/download';
import type * as userMessages from '../messages/user';
import type { SmsCodePurpose } from '../constants';

/**
 * `status`: Never filled by MOREDOC (no column).
 * `group_id`: Filled only by `GET /api/v1/user/list`.
 * `is_vip`: Ours: only in `GET /api/v1/user` for oneself — an active VIP period.
 * `vip_end_at`: Ours: only for oneself — end of the VIP period (also when it has passed).
 */
export type User = Wire<typeof userMessages.User>;

/**
 * `content`: May contain HTML links.
 */
export type Dynamic = Wire<typeof userMessages.Dynamic>;

/**
 * `sign_at`: Date as the integer YYYYMMDD.
 */
export type Sign = Wire<typeof userMessages.Sign>;

/** Ours (`GET /api/v1/user/sign/today`): `sign`, today's check-in, absent before it. */
export type SignedToday = Wire<typeof userMessages.SignedToday>;

/** Register and login. Through the gateway the token is moved into the cookie and absent. */
export type LoginReply = Wire<typeof userMessages.LoginReply>;

/**
 * `captcha`: base64 `data:` URI (PNG, or WAV for audio).
 */
export type GetUserCaptchaReply = Wire<typeof userMessages.GetUserCaptchaReply>;

export type GetUserPermissionsReply = Wire<typeof userMessages.GetUserPermissionsReply>;

export type ListUserReply = Wire<typeof userMessages.ListUserReply>;

export type ListUserGroupReply = Wire<typeof userMessages.ListUserGroupReply>;

export type ListUserDownloadReply = Wire<typeof downloadMessages.ListUserDownloadReply>;

export type ListUserDynamicReply = Wire<typeof userMessages.ListUserDynamicReply>;

/**
 * `code`: E-mailed registration code, when the security config requires it.
 */
export type RegisterAndLoginRequest = Wire<typeof userMessages.RegisterAndLoginRequest>;

export type RegisterRequest = RegisterAndLoginRequest;

export type LoginRequest = RegisterAndLoginRequest;

/** No id (or 0) = the caller. */
export type GetUserRequest = Wire<typeof userMessages.GetUserRequest>;

/**
 * `id`: Omitted = own password (then `old_password` is checked).
 */
export type UpdateUserPasswordRequest = Wire<typeof userMessages.UpdateUserPasswordRequest>;

/** Writes mobile, email, address, signature, avatar, realname, identity (and remark for admins). */
export type UpdateUserProfileRequest = Wire<typeof userMessages.User>;

/**
 * `password`: The caller's own password.
 */
export type DeleteUserRequest = Wire<typeof userMessages.DeleteUserRequest>;

/** AddUser (`POST /api/v1/user`) and SetUser (`PUT /api/v1/user`). */
export type SetUserRequest = Wire<typeof userMessages.SetUserRequest>;

/** AdjustUserCredit (`PUT /api/v1/user/credit`, ours): `amount` added, or taken away when negative. */
export type AdjustUserCreditRequest = Wire<typeof userMessages.AdjustUserCreditRequest>;

export type ListUserRequest = Wire<typeof userMessages.ListUserRequest>;

/** `sms`: the captcha in front of SendSmsCode (ours); `feedback`: a visitor's feedback (ours). */
export type CaptchaType = 'register' | 'login' | 'find_password' | 'comment' | 'sms' | 'feedback';

export type GetUserCaptchaRequest = Wire<typeof userMessages.GetUserCaptchaRequest>;

export type ListUserDownloadRequest = Wire<ReturnType<typeof commonMessages.PageRequest>>;

export type ListUserDynamicRequest = Wire<ReturnType<typeof commonMessages.PageRequest>>;

/** Step one uses email + captcha; step two email, token, password + captcha. */
export type FindPasswordRequest = Wire<typeof userMessages.FindPasswordRequest>;

/**
 * `type`: 0 register (the only one that works), 1 login.
 */
export type SendEmailCodeRequest = Wire<typeof userMessages.SendEmailCodeRequest>;

// Ours (docs/api.md §6): mobile numbers and SMS codes. Numbers are mainland mobile numbers
// in any usual spelling (`+86 138-1234-5678`); the backend stores them normalised.

/** `POST /api/v1/user/sms/code`: `bind` needs a login; the captcha when `security.enable_captcha_sms`. */
// The SPA asks a code only for the purposes the backend knows.
export type SendSmsCodeRequest = Wire<typeof userMessages.SendSmsCodeRequest> & { type: SmsCodePurpose };

/**
 * `interval`: Seconds before the next code to this number may be asked for.
 */
export type SendSmsCodeReply = Wire<typeof userMessages.SendSmsCodeReply>;

/** `POST /api/v1/user/register/mobile` → LoginReply; without `username` one is made up. */
export type MobileRegisterRequest = Wire<typeof userMessages.MobileRegisterRequest>;

/** `POST /api/v1/user/login/mobile` → MobileLoginReply. */
export type MobileLoginRequest = Wire<typeof userMessages.MobileLoginRequest>;

/** LoginReply, and whether the sign-in created the account (a number without one, while registration is open). */
export type MobileLoginReply = Wire<typeof userMessages.MobileLoginReply>;

/** `PUT /api/v1/user/findpassword/mobile`. */
export type MobileFindPasswordRequest = Wire<typeof userMessages.MobileFindPasswordRequest>;

/** `PUT /api/v1/user/mobile`: binds (or changes to) the number the code was sent to. */
export type BindMobileRequest = Wire<typeof userMessages.BindMobileRequest>;
