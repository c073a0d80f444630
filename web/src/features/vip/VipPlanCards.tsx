// The plans of the `vip` config as cards: price, days, description, the recommended one
// marked, and the way to buy each (立即开通, or 立即续费 for an active VIP, whose new days
// follow the current period).
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { formatFen, yuanToFen } from '../../../../shared/vip';
import type { VipPlan } from '../../../../shared/types/config';
import { Button } from '../../ui/semi';
import { useSession } from '../session/use-session';
import { myVipQuery } from './api';
import './vip.css';

export const checkoutPath = (code: string) => `/vip/checkout?plan=${encodeURIComponent(code)}`;

export function VipPlanCards({ plans, buyable }: { plans: readonly VipPlan[]; buyable: boolean }) {
  const navigate = useNavigate();
  // The member's own period, as the page above the plans shows it (one request for both).
  const { loggedIn } = useSession();
  const renews = useQuery({ ...myVipQuery(), enabled: loggedIn }).data?.active === true;
  return (
    <ul className="app-vip-plans" aria-label="会员套餐">
      {plans.map((plan) => (
        <li
          key={plan.code}
          className={`app-vip-plan${plan.recommended ? ' app-vip-plan--recommended' : ''}`}
          data-plan={plan.code}
        >
          {plan.recommended && <span className="app-vip-plan__badge">推荐</span>}
          <h3 className="app-vip-plan__title">{plan.title}</h3>
          <p className="app-vip-plan__price">
            <small>¥</small>
            {formatFen(yuanToFen(plan.price ?? 0))}
          </p>
          <p className="app-vip-plan__days">{plan.days} 天</p>
          {plan.description && <p className="app-vip-plan__description">{plan.description}</p>}
          <div className="app-vip-plan__buy">
            {buyable ? (
              <Button
                theme="solid"
                type={plan.recommended ? 'warning' : 'primary'}
                block
                // The words shown, then the plan's: one names the button by what it reads (立即开通).
                aria-label={`${renews ? '立即续费' : '立即开通'}${plan.title ?? ''}`}
                onClick={() => navigate(checkoutPath(plan.code ?? ''))}
              >
                {renews ? '立即续费' : '立即开通'}
              </Button>
            ) : (
              <Button block disabled>
                暂未开放购买
              </Button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
