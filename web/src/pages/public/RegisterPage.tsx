import { RegisterForm } from '../../features/auth/RegisterForm';
import { useAuthTarget } from '../../features/auth/sign-in';
import { SignedInNotice } from '../../features/auth/SignedInNotice';

/** `/auth/register`: a new member account, logged in at once; back to `redirect` after. */
export function RegisterPage() {
  const { target, alreadySignedIn } = useAuthTarget();
  if (alreadySignedIn) return <SignedInNotice target={target} />;
  return <RegisterForm target={target} />;
}
