import { AccountSummary } from '../../features/account/AccountSummary';
import { CurrentAccount } from '../../features/account/CurrentAccount';
import { RecentActivity } from '../../features/account/RecentActivity';
import { creditName } from '../../features/document/DocumentPrice';
import { useSettings } from '../../features/settings/use-settings';
import { PendingOrderNotice } from '../../features/order/PendingOrderNotice';
import { MyVipState } from '../../features/vip/VipState';
import { Link } from 'react-router-dom';
import { Panel } from '../../ui/Panel';
import './member.css';

/** `/member`: the member's account at a glance, their VIP state, and their recent activity. */
export function MemberOverviewPage() {
  const settings = useSettings();
  const credits = creditName(settings);
  return (
    <CurrentAccount loadingRows={4}>
      {(user) => (
        <>
          <AccountSummary user={user} creditName={credits} />
          <Panel title="VIP 会员" titleId="member-vip-title">
            <MyVipState action={(active) => <Link to="/vip">{active ? '续费' : '开通 VIP'}</Link>} />
            <PendingOrderNotice />
          </Panel>
          <Panel title="最近动态" titleId="member-activity-title">
            <RecentActivity />
          </Panel>
        </>
      )}
    </CurrentAccount>
  );
}
