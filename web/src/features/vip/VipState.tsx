// The member's own VIP period as one line: active until when, expired since when, or none.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDate } from '../../../../shared/format';
import type { UserVip } from '../../../../shared/types/vip';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Tag } from '../../ui/semi-extra';
import { myVipQuery } from './api';
import './vip.css';

const DATE = 'YYYY-MM-DD HH:mm';

export function VipStateLine({ vip, action }: { vip: UserVip; action?: (active: boolean) => ReactNode }) {
  const active = vip.active === true;
  return (
    <div className="app-vip-state" data-vip-active={active}>
      {active ? (
        <Tag color="amber" className="app-vip-state__tag app-vip-state__tag--vip">
          VIP 会员
        </Tag>
      ) : (
        <Tag color="grey" className="app-vip-state__tag app-vip-state__tag--plain">
          普通会员
        </Tag>
      )}
      <p className="app-vip-state__text">
        {active && vip.end_at ? (
          <>
            {vip.plan_title ? `${vip.plan_title} · ` : ''}有效期至 <strong>{formatDate(vip.end_at, DATE)}</strong>
          </>
        ) : vip.end_at ? (
          <>VIP 已于 {formatDate(vip.end_at, DATE)} 到期</>
        ) : (
          '您还不是 VIP 会员'
        )}
      </p>
      {action?.(active)}
    </div>
  );
}

/** The signed-in member's VIP state, loaded afresh, with its loading and error states. */
export function MyVipState({ action }: { action?: (active: boolean) => ReactNode }) {
  const vip = useQuery(myVipQuery());
  return (
    <QueryStates query={vip} loadingRows={1} failure="VIP 状态加载失败">
      {(data) => <VipStateLine vip={data} action={action} />}
    </QueryStates>
  );
}
