// Over a screen whose session the server refused (docs/decisions/059): the member is told why
// (decision 079), signs in again and sends what they typed once more; closing the dialog leaves
// for the login page, which says why too.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import type { SessionEnd } from '../../../../shared/session-end';
import { dialogWidth } from '../../ui/fit';
import { Button } from '../../ui/semi';
import { Modal } from '../../ui/Modal';
import { clearSession, session, sessionEnded } from '../session/session-store';
import { LOGIN_REASONS, loginReasonOfSessionEnd, loginReasonState } from './login-reason';
import { PasswordLoginForm } from './LoginForm';
import './sign-in-again.css';

export function SignInAgainDialog({ ended }: { ended: SessionEnd }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const queryClient = useQueryClient();
  // The member the session was for: only the password is asked again.
  const [username] = useState(() => session.peek().user?.username ?? '');
  const reason = loginReasonOfSessionEnd(ended);
  const signedIn = () => {
    sessionEnded.value = null;
    // What the refused session could not read is asked for again.
    void queryClient.invalidateQueries();
  };
  const leave = () => {
    sessionEnded.value = null;
    clearSession();
    void navigate(loginLocation(pathname + search), { replace: true, state: loginReasonState(reason) });
  };
  return (
    <Modal visible title="登录已失效" onCancel={leave} footer={null} width={dialogWidth(420)}>
      {ended === 'account-removed' ? (
        // No account to sign in to again: the login page, for another one.
        <>
          <p className="app-sign-in-again__note">{LOGIN_REASONS[reason]}。</p>
          <div className="app-sign-in-again__actions">
            <Button theme="solid" type="primary" onClick={leave}>
              确定
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="app-sign-in-again__note">
            {LOGIN_REASONS[reason]}。本页已填写的内容仍然保留，登录后再提交一次即可。
          </p>
          <PasswordLoginForm target={signedIn} idPrefix="sign-in-again-" initialUsername={username} />
        </>
      )}
    </Modal>
  );
}
