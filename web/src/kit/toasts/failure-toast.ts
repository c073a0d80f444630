// Error toasts of docs/product.md §8: the title says what failed (with the product's fallbacks), the
// description carries the server's message.
import type { ApiFailure } from '../../../../shared/api-failure';
import { FAILURE_FALLBACKS } from '../../../../shared/constants';
import { answeredBySigningInAgain, ApiError } from '../../api/client';
import { addToast, closeToastsOf } from './toast-store';

export const FAILURE_TITLE = {
  register: FAILURE_FALLBACKS.register,
  login: FAILURE_FALLBACKS.login,
  profileUpdate: FAILURE_FALLBACKS.updateProfile,
  permissionLoad: FAILURE_FALLBACKS.loadPermissions,
} as const;

export function failureMessage(failure: ApiFailure | unknown): string | undefined {
  if (failure instanceof ApiError) return failure.failure.data.message || undefined;
  const data = (failure as Partial<ApiFailure> | undefined)?.data;
  return typeof data?.message === 'string' && data.message !== '' ? data.message : undefined;
}

/**
 * Shows an error toast titled `title`; returns its id. It replaces an open one of the same title, so
 * a failure repeated by clicking again shows once. None for a failure that the sign-in-again
 * dialog answers (docs/decisions/059): it is the whole answer, and the form keeps its input.
 */
export function toastFailure(title: string, failure?: ApiFailure | unknown): number | undefined {
  if (answeredBySigningInAgain(failure)) return undefined;
  return toastRefusal(title, failureMessage(failure));
}

/**
 * The error toast of `toastFailure` for what the page itself refuses before sending (a file of the
 * wrong type or too big): it replaces, and is replaced by, the failure toast of the same title.
 */
export function toastRefusal(title: string, message: string | undefined): number {
  return addToast({
    title,
    description: message !== title ? message : undefined,
    color: 'error',
    key: failureKey(title),
  });
}

const failureKey = (title: string) => `failure:${title}`;

/**
 * Closes the open failure toast titled `title`, when the same action has succeeded since: 发布失败
 * beside 文章已发布 would say the article failed that was just published.
 */
export function retireFailure(title: string): void {
  closeToastsOf(failureKey(title));
}
