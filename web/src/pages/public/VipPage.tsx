import { Link } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { VIP_NOT_ON_SALE, vipOnSale } from '../../../../shared/vip';
import { PendingOrderNotice } from '../../features/order/PendingOrderNotice';
import { useSession } from '../../features/session/use-session';
import { useSettings } from '../../features/settings/use-settings';
import { VipBenefits } from '../../features/vip/VipBenefits';
import { VipPlanCards } from '../../features/vip/VipPlanCards';
import { MyVipState } from '../../features/vip/VipState';
import { Panel } from '../../ui/Panel';
import { Notice } from '../../ui/Notice';
import { EmptyState } from '../../ui/states';
import '../../features/vip/vip.css';

/** `/vip`: the plans of the vip config, the benefits, and the visitor's own VIP state. */
export function VipPage() {
  const settings = useSettings();
  const { loggedIn } = useSession();
  const vip = settings.vip ?? {};
  const plans = vip.plans ?? [];
  const onSale = vipOnSale(settings);
  return (
    <div className="app-container app-vip">
      <section className="app-panel app-vip__hero" aria-labelledby="vip-title">
        <h1 id="vip-title">{vip.title || 'VIP 会员'}</h1>
        {vip.description && <p>{vip.description}</p>}
        {loggedIn ? (
          <>
            <MyVipState />
            <PendingOrderNotice />
          </>
        ) : (
          <p>
            {/* Not on sale, nothing opens after logging in: one's own VIP state still shows. */}
            <Link to={loginLocation('/vip')}>登录</Link>
            {onSale ? '后即可开通 VIP 会员' : '后查看您的会员状态'}
          </p>
        )}
      </section>
      <Panel title="会员套餐" titleId="vip-plans-title">
        {!onSale && <Notice type="info" description={VIP_NOT_ON_SALE} />}
        {plans.length ? <VipPlanCards plans={plans} buyable={onSale} /> : <EmptyState title="暂无会员套餐" />}
      </Panel>
      <Panel title="会员权益" titleId="vip-benefits-title">
        <VipBenefits html={vip.benefits} />
      </Panel>
    </div>
  );
}
