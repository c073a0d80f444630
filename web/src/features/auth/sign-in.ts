// What login and register share: where the visitor goes afterwards, and the end of the call.
import { useCallback, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { safeRedirect } from '../../../../shared/access';
import type { ApiResult } from '../../api/client';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { closeToast, toast } from '../../kit/toasts/toast-store';
import { completeSignIn } from '../session/session-actions';
import { useSession } from '../session/use-session';
import type { LoginAnswer } from '../user/api';

/**
 * Where an auth screen sends the visitor afterwards (`?redirect=`, made safe), and whether they
 * were already signed in when it opened (a sign-in on this screen does not count).
 */
export function useAuthTarget(): { target: string; alreadySignedIn: boolean } {
  const [params] = useSearchParams();
  const { loggedIn } = useSession();
  const [alreadySignedIn] = useState(loggedIn);
  return { target: safeRedirect(params.get('redirect')), alreadySignedIn };
}

/** The toasts of a login or register: its failure's title, and its success's with the welcome. */
export interface SignInMessages {
  failure: string;
  success: string;
  welcome: string;
}

/**
 * Where a sign-in goes on: the path of `target`, or, when it is a function, nowhere but that
 * function (the dialog that signs an expired session in again over the screen it keeps).
 */
export type SignInTarget = string | (() => void);

/**
 * The end of a login or register (`finish`): a failure toasts `failure` and answers false (the
 * form then renews its captcha, which the backend consumed); a success signs in, toasts
 * `success` with `welcome` and the user's name, and goes on to `target`. `retractFailure`
 * closes the failure toast, which a form does when it is sent again: an old 注册失败 /
 * 用户名已存在 must not stand beside the new attempt's own errors.
 */
export function useFinishSignIn(target: SignInTarget) {
  const navigate = useNavigate();
  const failure = useRef<number | undefined>(undefined);
  const retractFailure = useCallback(() => {
    if (failure.current !== undefined) closeToast(failure.current);
    failure.current = undefined;
  }, []);
  const finish = async (result: ApiResult<LoginAnswer>, messages: SignInMessages): Promise<boolean> => {
    retractFailure();
    if (!result.ok || !result.data.user) {
      failure.current = toastFailure(messages.failure, result.ok ? undefined : result);
      return false;
    }
    await completeSignIn(result.data.user);
    toast.success(messages.success, `${messages.welcome}，${result.data.user.username ?? ''}`);
    if (typeof target === 'function') target();
    else await navigate(target, { replace: true });
    return true;
  };
  return { finish, retractFailure };
}

/**
 * A login or register form: its errors under the fields, whether it is being sent, and `submit`,
 * which retracts the last attempt's failure, checks the fields (`problems`: nothing is sent while
 * one is wrong), sends with the button busy and finishes the sign-in. A refusal that `fieldOf`
 * gives a field of the form (用户名已存在) is said under that field instead of in a toast. When the visitor is not
 * signed in, the form is usable again and `submit` answers the refused result, for the form to
 * renew a captcha the backend consumed. `formRef` goes on the <form>: a refused check takes the
 * keyboard to the first wrong field.
 */
export function useSignInForm<F extends string>(target: SignInTarget) {
  const { finish, retractFailure } = useFinishSignIn(target);
  const [errors, setErrors] = useState<Errors<F>>({});
  const [submitting, setSubmitting] = useState(false);
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const submit = async <A extends LoginAnswer>(
    problems: Record<F, string | undefined>,
    send: () => Promise<ApiResult<A>>,
    messages: SignInMessages | ((result: ApiResult<A>) => SignInMessages),
    fieldOf?: (message: string) => F | undefined,
  ): Promise<ApiResult<A> | undefined> => {
    retractFailure();
    const invalid = collectErrors<F>(problems);
    setErrors(invalid ?? {});
    if (invalid) {
      focusFirstInvalid();
      return undefined;
    }
    setSubmitting(true);
    const result = await send();
    const field = result.ok ? undefined : fieldOf?.(result.data.message);
    if (!result.ok && field) {
      setErrors({ [field]: result.data.message } as Errors<F>);
      focusFirstInvalid();
      setSubmitting(false);
      return result;
    }
    if (await finish(result, typeof messages === 'function' ? messages(result) : messages)) return undefined;
    setSubmitting(false);
    return result;
  };
  return { errors, setErrors, submitting, submit, formRef };
}
