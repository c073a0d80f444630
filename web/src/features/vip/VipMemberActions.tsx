// A VIP member's row actions on /admin/user/vip: extend the period, revoke it (both with a
// reason kept), and read its history.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { optionLabel } from '../../../../shared/constants';
import { formatDate, SHORT_DATE_FORMAT } from '../../../../shared/format';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { UserVip, VipLog } from '../../../../shared/types/vip';
import { VIP_PLAN_MAX_DAYS, vipActionOptions } from '../../../../shared/vip';
import { ActionDialog } from '../../kit/admin-resource/ActionDialog';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import type { FieldDef } from '../../kit/admin-resource/resource';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Pager } from '../../ui/Pager';
import { Button } from '../../ui/semi';
import { SideSheet } from '../../ui/semi-admin';
import { EmptyState } from '../../ui/states';
import { grantVip, revokeVip, vipLogQuery } from './api';
import { sheetWidth } from '../../ui/fit';

export const GRANT = grpcPermissionPath('UserVipAPI', 'GrantUserVip');
const REVOKE = grpcPermissionPath('UserVipAPI', 'RevokeUserVip');
const LOG = grpcPermissionPath('UserVipAPI', 'ListUserVipLog');
/** The permissions of the buttons of VipMemberActions (延长, 取消会员, 记录). */
export const VIP_MEMBER_ACTIONS = [GRANT, REVOKE, LOG];

export const reasonField = <V extends { reason: string }>(
  label = '原因',
  hint = '会记录在会员变更记录中',
): FieldDef<V> => ({
  name: 'reason' as Extract<keyof V, string>,
  label,
  kind: 'textarea',
  required: true,
  maxLength: 255,
  hint,
});

export const daysField = <V extends { days: number | undefined }>(): FieldDef<V> => ({
  name: 'days' as Extract<keyof V, string>,
  label: '天数',
  kind: 'number',
  required: true,
  integer: true,
  min: 1,
  max: VIP_PLAN_MAX_DAYS,
});

type ExtendValues = { days: number | undefined; reason: string };
type RevokeValues = { reason: string };

/**
 * When and by whom: the admin, else the order. A purchase's reason names the order by its number
 * (订单 2024…), which the order list finds; its id (#7) is said only when no reason does.
 */
function logSource(entry: VipLog): string {
  const by = entry.operator || (entry.order_id ? (entry.reason ? '' : `订单 #${entry.order_id}`) : '系统');
  return [formatDate(entry.created_at ?? '', SHORT_DATE_FORMAT), by, entry.reason].filter(Boolean).join(' · ');
}

function VipLogSheet({ row, onClose }: { row: UserVip; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const log = useQuery(vipLogQuery(row.user_id ?? 0, page));
  return (
    <SideSheet visible title={`会员变更记录 · ${row.username ?? ''}`} onCancel={onClose} width={sheetWidth(560)}>
      <QueryStates
        query={log}
        loadingRows={6}
        failure="变更记录加载失败"
        isEmpty={(data) => !data.log?.length}
        empty={<EmptyState title="暂无变更记录" />}
      >
        {(data) => (
          <>
            <ol className="app-vip-log" aria-label="会员变更记录">
              {(data.log ?? []).map((entry) => (
                <li key={entry.id}>
                  <strong>{optionLabel(vipActionOptions, entry.action ?? 0, '变更')}</strong>
                  {entry.days ? `（${entry.days > 0 ? '+' : ''}${entry.days} 天）` : ''}
                  {' · '}到期 {entry.end_after ? formatDate(entry.end_after, SHORT_DATE_FORMAT) : '-'}
                  <div className="app-resource-muted">{logSource(entry)}</div>
                </li>
              ))}
            </ol>
            <Pager page={page} size={10} total={data.total ?? 0} onChange={setPage} />
          </>
        )}
      </QueryStates>
    </SideSheet>
  );
}

export function VipMemberActions({ row }: { row: UserVip }) {
  const may = useMayCall();
  const [open, setOpen] = useState<'extend' | 'revoke' | 'log' | null>(null);
  const name = row.username ?? `#${row.user_id ?? ''}`;
  const close = () => setOpen(null);
  return (
    <>
      {may(GRANT) && (
        <Button size="small" theme="borderless" aria-label={`延长“${name}”的会员`} onClick={() => setOpen('extend')}>
          延长
        </Button>
      )}
      {may(REVOKE) && row.active && (
        <Button
          size="small"
          theme="borderless"
          type="danger"
          aria-label={`取消“${name}”的会员`}
          onClick={() => setOpen('revoke')}
        >
          取消会员
        </Button>
      )}
      {may(LOG) && (
        <Button size="small" theme="borderless" aria-label={`“${name}”的变更记录`} onClick={() => setOpen('log')}>
          记录
        </Button>
      )}
      {open === 'extend' && (
        <ActionDialog<ExtendValues>
          idPrefix={`vip-extend-${row.user_id ?? 0}`}
          title={`延长会员 · ${name}`}
          message={
            row.active && row.end_at
              ? `当前有效期至 ${formatDate(row.end_at, SHORT_DATE_FORMAT)}，新增天数从该日期起算。`
              : '会员已过期，新增天数从现在起算。'
          }
          okText="延长"
          fields={[daysField<ExtendValues>(), reasonField<ExtendValues>()]}
          initial={{ days: 30, reason: '' }}
          run={(values, context) =>
            grantVip({ user_id: [row.user_id ?? 0], days: values.days ?? 0, reason: values.reason.trim() }, context)
          }
          success="会员已延长"
          failure="延长会员失败"
          onClose={close}
        />
      )}
      {open === 'revoke' && (
        <ActionDialog<RevokeValues>
          idPrefix={`vip-revoke-${row.user_id ?? 0}`}
          title={`取消会员 · ${name}`}
          message="会员资格将立即结束（已付款的订单不会自动退款）。"
          okText="取消会员"
          danger
          fields={[reasonField<RevokeValues>()]}
          initial={{ reason: '' }}
          run={(values, context) => revokeVip({ user_id: [row.user_id ?? 0], reason: values.reason.trim() }, context)}
          success="会员已取消"
          failure="取消会员失败"
          onClose={close}
        />
      )}
      {open === 'log' && <VipLogSheet row={row} onClose={close} />}
    </>
  );
}
