// UserAPI calls of SPEC §7 (contract: endpoints.md, UserAPI). Through the gateway, login and
// register answer `{user}`: the token becomes an httpOnly cookie before the SPA sees it.
import { queryOptions } from '@tanstack/react-query';
import type { UploadImageReply } from '../../../shared/types/attachment';
import type { CaptchaType, FindPasswordRequest, GetUserCaptchaReply, GetUserPermissionsReply, ListUserDownloadReply, ListUserDynamicReply, ListUserGroupReply, ListUserReply, LoginReply, RegisterAndLoginRequest, SendEmailCodeRequest, SetUserRequest, Sign, UpdateUserPasswordRequest, User } from '../../../shared/types/user';
import { api, unwrap } from './client';

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

export const userApi = {
  register: (input: RegisterAndLoginRequest) => api.post<LoginAnswer>('/api/v1/user/register', input),
  login: (input: RegisterAndLoginRequest) => api.post<LoginAnswer>('/api/v1/user/login', input),
  logout: () => api.delete<unknown>('/api/v1/user/logout'),
  /** The caller's own profile; the start-up probe handles a 401 itself. */
  current: (options?: { probe?: boolean }) =>
    api.get<User>('/api/v1/user', undefined, { skipUnauthorizedRedirect: options?.probe }),
  permissions: (options?: { probe?: boolean }) =>
    api.get<GetUserPermissionsReply>('/api/v1/user/permission', undefined, { skipUnauthorizedRedirect: options?.probe }),
  captcha: (type: CaptchaKind) => api.get<GetUserCaptchaReply>('/api/v1/user/captcha', { type }),
  updateProfile: (input: ProfileInput) => api.put<unknown>('/api/v1/user/profile', input),
  updatePassword: (input: UpdateUserPasswordRequest) => api.put<unknown>('/api/v1/user/password', input),
  findPasswordStepOne: (input: FindPasswordRequest) => api.post<unknown>('/api/v1/user/findpassword/stepone', input),
  findPasswordStepTwo: (input: FindPasswordRequest) => api.put<unknown>('/api/v1/user/findpassword/steptwo', input),
  sendEmailCode: (input: Omit<SendEmailCodeRequest, 'type'>) =>
    api.post<unknown>('/api/v1/user/email/code', { ...input, type: 0 }),
  groups: () => api.get<ListUserGroupReply>('/api/v1/user/group'),
  downloads: (page: number, size: number) => api.get<ListUserDownloadReply>('/api/v1/user/download', { page, size }),
  dynamics: (page: number, size: number) => api.get<ListUserDynamicReply>('/api/v1/user/dynamic', { page, size }),
  signedToday: () => api.get<Sign>('/api/v1/user/sign'),
  signToday: () => api.put<Sign>('/api/v1/user/sign'),
  uploadAvatar: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<UploadImageReply>('/api/v1/upload/avatar', form);
  },
};

export const userKeys = {
  all: ['user'] as const,
  current: ['user', 'current'] as const,
  groups: ['user', 'groups'] as const,
  downloads: (page: number, size: number) => ['user', 'downloads', page, size] as const,
  dynamics: (page: number, size: number) => ['user', 'dynamics', page, size] as const,
  signedToday: ['user', 'sign'] as const,
};

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
    queryFn: async () => unwrap(await userApi.groups()).group ?? [],
  });

export const userDownloadsQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: userKeys.downloads(page, size),
    queryFn: async () => unwrap(await userApi.downloads(page, size)),
  });

export const userDynamicsQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: userKeys.dynamics(page, size),
    queryFn: async () => unwrap(await userApi.dynamics(page, size)),
  });

/** Today's check-in, or null when there is none yet (the backend answers 404). */
export const signedTodayQuery = () =>
  queryOptions({
    queryKey: userKeys.signedToday,
    queryFn: async () => {
      const result = await userApi.signedToday();
      if (!result.ok && result.status === 404) return null;
      return unwrap(result);
    },
  });

/** The admin's user management (AddUser, SetUser, UpdateUserProfile of others, DeleteUser, ListUser). */
export const userAdminApi = {
  list: (query: { page: number; size: number; wd?: string; group_id?: readonly number[]; id?: readonly number[] }) =>
    api.get<ListUserReply>('/api/v1/user/list', query),
  create: (request: SetUserRequest) => api.post<unknown>('/api/v1/user', request),
  /** Groups (replaced) and, when given, a new password. */
  setGroupsAndPassword: (request: SetUserRequest) => api.put<unknown>('/api/v1/user', request),
  /** Every profile column is written (empty clears it), plus the admin's remark. */
  updateProfile: (input: ProfileInput & { remark?: string }) => api.put<unknown>('/api/v1/user/profile', input),
  /** `password` is the caller's own password (contract: DeleteUser). */
  remove: (ids: readonly number[], password: string) => api.delete<unknown>('/api/v1/user', { id: ids, password }),
};
