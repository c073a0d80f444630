// UserAPI calls of docs/product.md §7 (docs/moredoc.md, UserAPI): the visitor's own account and the
// admin's user management. Through the gateway, login and register answer `{user}`: the token
// becomes an httpOnly cookie before the SPA sees it. Everything about users is kept under
// `userKeys.all`, which a logout drops.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  AdjustUserCreditRequest,
  BindMobileRequest,
  CaptchaType,
  FindPasswordRequest,
  GetUserCaptchaReply,
  GetUserPermissionsReply,
  ListUserDownloadReply,
  ListUserDynamicReply,
  ListUserGroupReply,
  ListUserReply,
  LoginReply,
  MobileFindPasswordRequest,
  MobileLoginReply,
  MobileLoginRequest,
  MobileRegisterRequest,
  RegisterAndLoginRequest,
  SendEmailCodeRequest,
  SendSmsCodeReply,
  SendSmsCodeRequest,
  SetUserRequest,
  Sign,
  SignedToday,
  UpdateUserPasswordRequest,
  User,
} from '../../../../shared/types/user';
import { api, unwrap, type ApiResult } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { groupKeys } from '../group/api';

/** Through the gateway the token never arrives: it became an httpOnly cookie. */
export type LoginAnswer = Omit<LoginReply, 'token'>;

export type CaptchaKind = CaptchaType;

export interface ProfileInput {
  id: number;
  realname?: string;
  email?: string;
  mobile?: string;
  address?: string;
  signature?: string;
  identity?: string;
  avatar?: string;
}

export const userKeys = {
  all: ['user'] as const,
  current: ['user', 'current'] as const,
  groups: ['user', 'groups'] as const,
  downloads: (page: number, size: number) => ['user', 'downloads', page, size] as const,
  dynamics: (page: number, size: number) => ['user', 'dynamics', page, size] as const,
  signedToday: ['user', 'sign'] as const,
  /** The admin's user lists and user searches. */
  admin: ['user', 'admin'] as const,
  search: (term: string) => ['user', 'admin', 'search', term] as const,
  named: (ids: readonly number[]) => ['user', 'admin', 'named', ...ids] as const,
};

export const userApi = {
  register: (input: RegisterAndLoginRequest) => api.post<LoginAnswer>('/api/v1/user/register', input),
  login: (input: RegisterAndLoginRequest) => api.post<LoginAnswer>('/api/v1/user/login', input),
  logout: () => api.delete<unknown>('/api/v1/user/logout'),
  /** The caller's own profile; the start-up probe handles a refused session itself. */
  current: (options?: { probe?: boolean }) =>
    api.get<User>('/api/v1/user', undefined, { skipUnauthorizedRedirect: options?.probe, noSessionStatus: 400 }),
  permissions: (options?: { probe?: boolean }) =>
    api.get<GetUserPermissionsReply>('/api/v1/user/permission', undefined, {
      skipUnauthorizedRedirect: options?.probe,
    }),
  captcha: (type: CaptchaKind) => api.get<GetUserCaptchaReply>('/api/v1/user/captcha', { type }),
  updateProfile: (input: ProfileInput) => api.put<unknown>('/api/v1/user/profile', input),
  updatePassword: (input: UpdateUserPasswordRequest) => api.put<unknown>('/api/v1/user/password', input),
  findPasswordStepOne: (input: FindPasswordRequest) => api.post<unknown>('/api/v1/user/findpassword/stepone', input),
  findPasswordStepTwo: (input: FindPasswordRequest) => api.put<unknown>('/api/v1/user/findpassword/steptwo', input),
  sendEmailCode: (input: Omit<SendEmailCodeRequest, 'type'>) =>
    api.post<unknown>('/api/v1/user/email/code', { ...input, type: 0 }),
  // Ours (docs/api.md §6): codes by SMS, and the sign-up, sign-in and reset they allow.
  sendSmsCode: (input: SendSmsCodeRequest) => api.post<SendSmsCodeReply>('/api/v1/user/sms/code', input),
  registerByMobile: (input: MobileRegisterRequest) => api.post<LoginAnswer>('/api/v1/user/register/mobile', input),
  /** `registered`: the number had no account and the sign-in created it (registration open). */
  loginByMobile: (input: MobileLoginRequest) =>
    api.post<Omit<MobileLoginReply, 'token'>>('/api/v1/user/login/mobile', input),
  findPasswordByMobile: (input: MobileFindPasswordRequest) =>
    api.put<unknown>('/api/v1/user/findpassword/mobile', input),
};

/** BindMobile: the member's number and activity change. */
export const bindMobile = (input: BindMobileRequest, context: WriteContext) =>
  invalidateAfter(api.put<unknown>('/api/v1/user/mobile', input), context, [userKeys.all]);

export const captchaQuery = (type: CaptchaKind, enabled: boolean) =>
  queryOptions({
    queryKey: ['captcha', type] as const,
    queryFn: async () => unwrap(await userApi.captcha(type)),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });

export const userGroupsQuery = () =>
  queryOptions({
    queryKey: userKeys.groups,
    queryFn: async () => unwrap(await api.get<ListUserGroupReply>('/api/v1/user/group')).group ?? [],
  });

export const userDownloadsQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: userKeys.downloads(page, size),
    queryFn: async () => unwrap(await api.get<ListUserDownloadReply>('/api/v1/user/download', { page, size })),
  });

export const userDynamicsQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: userKeys.dynamics(page, size),
    queryFn: async () => unwrap(await api.get<ListUserDynamicReply>('/api/v1/user/dynamic', { page, size })),
  });

/**
 * Today's check-in, or null when there is none yet. Asked of our own route (decision 099), which
 * answers 200 either way: MOREDOC's `GET /api/v1/user/sign` answers 404 before it, an error in the
 * console on every 个人中心 visit. Asked again when the member comes back to the tab: a 个人中心
 * left open overnight (a phone's tab) would still say 今日已签到 the next day.
 */
export const signedTodayQuery = () =>
  queryOptions({
    queryKey: userKeys.signedToday,
    refetchOnWindowFocus: 'always',
    queryFn: async (): Promise<Sign | null> =>
      unwrap(await api.get<SignedToday>('/api/v1/user/sign/today')).sign ?? null,
  });

/** The daily check-in: credits, dynamics and today's sign change, so every user query goes stale. */
export const signToday = (context: WriteContext) =>
  invalidateAfter(api.put<Sign>('/api/v1/user/sign'), context, [userKeys.all]);

/** The admin's user list (ListUser); `id` narrows it to those users. */
export const listUsers = (query: {
  page: number;
  size: number;
  wd?: string;
  group_id?: readonly number[];
  id?: readonly number[];
}) => api.get<ListUserReply>('/api/v1/user/list', query);

/** Users searched by name, for pickers. */
export const userSearchQuery = (term: string) =>
  queryOptions({
    queryKey: userKeys.search(term),
    queryFn: async () => unwrap(await listUsers({ page: 1, size: 20, wd: term || undefined })).user ?? [],
  });

/** The users `ids` (a picker given ids it has not found by a search, e.g. from the address). */
export const usersByIdQuery = (ids: readonly number[]) =>
  queryOptions({
    queryKey: userKeys.named(ids),
    queryFn: async () => unwrap(await listUsers({ page: 1, size: ids.length, id: ids })).user ?? [],
    enabled: ids.length > 0,
  });

/**
 * The names of the users `ids` as the user searches of the pickers found them (`#id` for one
 * not among them), to say whom an action concerned.
 */
export function searchedUsernames(client: QueryClient, ids: readonly number[]): string[] {
  const found = new Map<number, string>();
  for (const [, users] of client.getQueriesData<User[]>({ queryKey: [...userKeys.admin, 'search'] })) {
    for (const user of users ?? []) if (user.id && user.username) found.set(user.id, user.username);
  }
  return ids.map((id) => found.get(id) ?? `#${id}`);
}

// The admin's writes change the user lists and the groups' user counts.
const staleAfterAdminWrite = [userKeys.admin, groupKeys.all];

/** AddUser. */
export const createUser = (request: SetUserRequest, context: WriteContext) =>
  invalidateAfter(api.post<unknown>('/api/v1/user', request), context, staleAfterAdminWrite);

/**
 * An admin's edit of a user: UpdateUserProfile (every profile column is written, empty clears
 * it, plus the admin's remark), then SetUser (groups replaced and, when given, a new password).
 * The profile goes first because it is the call the backend refuses for a taken e-mail or
 * mobile; SetUser checks nothing but the groups. Should SetUser still fail, the answer says
 * that the profile was saved and what was not, and the lists are refreshed all the same.
 */
export async function updateUser(
  membership: SetUserRequest,
  profile: ProfileInput & { remark?: string },
  context: WriteContext,
): Promise<ApiResult<unknown>> {
  const saved = await api.put<unknown>('/api/v1/user/profile', profile);
  if (!saved.ok) return saved;
  const result = await invalidateAfter(api.put<unknown>('/api/v1/user', membership), context, staleAfterAdminWrite);
  if (result.ok) return result;
  await Promise.all(staleAfterAdminWrite.map((queryKey) => context.client.invalidateQueries({ queryKey })));
  const unsaved = membership.password ? '新密码和角色' : '角色';
  return { ...result, data: { ...result.data, message: `资料已保存，${unsaved}未保存：${result.data.message}` } };
}

/** AdjustUserCredit (ours, docs/decisions/076): the list shows the new balance. */
export const adjustUserCredit = (request: AdjustUserCreditRequest, context: WriteContext) =>
  invalidateAfter(api.put<unknown>('/api/v1/user/credit', request), context, [userKeys.admin]);

/** DeleteUser: `password` is the caller's own password. */
export const deleteUsers = (ids: readonly number[], password: string, context: WriteContext) =>
  invalidateAfter(api.delete<unknown>('/api/v1/user', { id: ids, password }), context, staleAfterAdminWrite);
