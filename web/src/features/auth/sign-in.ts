// What login and register share: where the visitor goes afterwards, and the end of the call.
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { safeRedirect } from '../../../../shared/access';
import type { ApiResult } from '../../api/client';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
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

/**
 * The end of a login or register: a failure toasts `failure` and answers false (the form then
 * renews its captcha, which the backend consumed); a success signs in, toasts `success` with
 * `welcome` and the user's name, and goes on to `target`.
 */
export function useFinishSignIn(target: string) {
  const navigate = useNavigate();
  return async (result: ApiResult<LoginAnswer>, messages: { failure: string; success: string; welcome: string }): Promise<boolean> => {
    if (!result.ok || !result.data.user) {
      toastFailure(messages.failure, result.ok ? undefined : result);
      return false;
    }
    await completeSignIn(result.data.user);
    toast.success(messages.success, `${messages.welcome}，${result.data.user.username ?? ''}`);
    await navigate(target, { replace: true });
    return true;
  };
}
