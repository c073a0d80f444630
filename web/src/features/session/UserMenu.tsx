import { Avatar } from '../../ui/Avatar';
import { IconChevronDown } from '../../ui/icons';
import { MenuButton } from '../../ui/MenuButton';
import { useLogout } from './session-actions';
import { useSession } from './use-session';

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

/** The logged-in user's avatar and name, opening a menu of `entries` and 退出登录. */
export function UserMenu({ entries }: { entries: readonly UserMenuEntry[] }) {
  const { user } = useSession();
  const logout = useLogout();
  return (
    <MenuButton
      align="end"
      ariaLabel={`用户菜单 ${user?.username ?? ''}`}
      testId="user-menu"
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
