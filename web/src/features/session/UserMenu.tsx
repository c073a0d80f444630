import { Avatar } from '../../ui/Avatar';
import { IconChevronDown } from '../../ui/icons';
import { MenuButton } from '../../ui/MenuButton';
import { useSettings } from '../settings/use-settings';
import { useLogout } from './session-actions';
import { useSession } from './use-session';
import './user-menu.css';

export interface UserMenuEntry {
  label: string;
  to: string;
}

export function UserAvatar({
  size = 'small',
  decorative,
}: {
  size?: 'small' | 'default' | 'large';
  decorative?: boolean;
}) {
  const { user } = useSession();
  return <Avatar src={user?.avatar} name={user?.username ?? ''} size={size} decorative={decorative} />;
}

/**
 * Who is signed in, at the top of the open menu: a phone's header shows the avatar alone, and
 * 会员 without its VIP (layouts.css), so the name and the VIP mark are said here.
 */
function SignedInAs() {
  const { user } = useSession();
  const vip = useSettings().vip?.enable === true && user?.is_vip === true;
  return (
    <div className="app-user-menu__who">
      <UserAvatar decorative />
      <span className="app-user-menu__who-name">{user?.username}</span>
      {vip && <span className="app-user-menu__vip">VIP 会员</span>}
    </div>
  );
}

/** The logged-in user's avatar and name, opening a menu of who is signed in, `entries` and 退出登录. */
export function UserMenu({ entries }: { entries: readonly UserMenuEntry[] }) {
  const { user } = useSession();
  const logout = useLogout();
  return (
    <MenuButton
      align="end"
      ariaLabel={`用户菜单 ${user?.username ?? ''}`}
      testId="user-menu"
      heading={<SignedInAs />}
      label={
        <>
          <UserAvatar decorative />
          <span className="app-user-menu__name">{user?.username}</span>
          <IconChevronDown size="small" />
        </>
      }
      entries={[
        ...entries.map((entry) => ({ key: entry.to, label: entry.label, to: entry.to })),
        { key: 'logout', label: '退出登录', onSelect: () => void logout(), separated: true },
      ]}
    />
  );
}
