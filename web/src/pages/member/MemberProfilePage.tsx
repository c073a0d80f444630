import { CurrentAccount } from '../../features/account/CurrentAccount';
import { MobileBinding } from '../../features/account/MobileBinding';
import { PasswordForm } from '../../features/account/PasswordForm';
import { ProfileForm } from '../../features/account/ProfileForm';
import './member.css';

/** `/member/profile`: profile, avatar, mobile number and password. */
export function MemberProfilePage() {
  return (
    <CurrentAccount loadingRows={6}>
      {(user) => (
        <>
          {/* The panels are titled (基本资料, 手机号, 修改密码): the page's own title is for screen readers. */}
          <h1 className="app-visually-hidden">个人资料</h1>
          <section className="app-panel">
            <ProfileForm key={user.id} user={user} />
          </section>
          <MobileBinding mobile={user.mobile ?? ''} />
          <section className="app-panel">
            <PasswordForm />
          </section>
        </>
      )}
    </CurrentAccount>
  );
}
