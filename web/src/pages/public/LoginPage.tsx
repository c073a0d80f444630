import { LoginForm } from '../../features/auth/LoginForm';
import { useAuthTarget } from '../../features/auth/sign-in';
import { SignedInNotice } from '../../features/auth/SignedInNotice';

/** `/auth/login`: the login form; back to `redirect` after. */
export function LoginPage() {
  const { target, alreadySignedIn } = useAuthTarget();
  if (alreadySignedIn) return <SignedInNotice target={target} />;
  return <LoginForm target={target} />;
}
