import { Link } from 'react-router-dom';
import { useLogout } from '../session/session-actions';
import { useSession } from '../session/use-session';
import { Button } from '../../ui/semi';

/** Shown on the auth screens to a visitor who is already logged in. */
export function SignedInNotice({ target }: { target: string }) {
  const { user } = useSession();
  const logout = useLogout();
  return (
    <div className="app-state" role="status">
      <p className="app-state__title">您已登录为 {user?.username}</p>
      <div className="app-form-actions">
        <Link to={target}>继续访问</Link>
        <Link to="/member">个人中心</Link>
        <Button onClick={() => void logout()}>退出登录</Button>
      </div>
    </div>
  );
}
