// Over a screen whose session the server refused (docs/decisions/059): the member signs in
// again and sends what they typed once more; closing the dialog leaves for the login page.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { dialogWidth } from '../../ui/fit';
import { Modal } from '../../ui/semi-admin';
import { clearSession, session, sessionExpired } from '../session/session-store';
import { PasswordLoginForm } from './LoginForm';
import './sign-in-again.css';

export function SignInAgainDialog() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const queryClient = useQueryClient();
  // The member the session was for: only the password is asked again.
  const [username] = useState(() => session.peek().user?.username ?? '');
  const signedIn = () => {
    sessionExpired.value = false;
    // What the refused session could not read is asked for again.
    void queryClient.invalidateQueries();
  };
  const leave = () => {
    sessionExpired.value = false;
    clearSession();
    void navigate(loginLocation(pathname + search), { replace: true });
  };
  return (
    // A 401 does not say why the session ended (its time ran out, or a password change elsewhere
    // revoked it: both answer MOREDOC's one message), so the dialog says what is true of both.
    <Modal visible title="登录已失效" onCancel={leave} footer={null} width={dialogWidth(420)}>
      <p className="app-sign-in-again__note">
        登录已过期，或密码已在其他设备上修改，请重新登录。本页已填写的内容仍然保留，登录后再提交一次即可。
      </p>
      <PasswordLoginForm target={signedIn} idPrefix="sign-in-again-" initialUsername={username} />
    </Modal>
  );
}
