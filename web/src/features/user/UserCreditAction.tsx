// A user's row action on /admin/user/list: add or take away credits, with a reason that the
// member reads in their 动态 (docs/decisions/076).
import { useState } from 'react';
import { CREDIT_ADJUST_MAX } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { User } from '../../../../shared/types/user';
import { ActionDialog } from '../../kit/admin-resource/ActionDialog';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import type { FieldDef } from '../../kit/admin-resource/resource';
import { Button } from '../../ui/semi';
import { adjustUserCredit } from './api';

export const ADJUST_CREDIT = grpcPermissionPath('UserAPI', 'AdjustUserCredit');

type CreditValues = { amount: number | undefined; reason: string };

/** `credits`: the site's name of its credits (魔豆). */
export function UserCreditAction({ row, credits }: { row: User; credits: string }) {
  const may = useMayCall();
  const [open, setOpen] = useState(false);
  if (!may(ADJUST_CREDIT)) return null;
  const name = row.username ?? `#${row.id ?? ''}`;
  const balance = row.credit_count ?? 0;
  const fields: FieldDef<CreditValues>[] = [
    {
      name: 'amount',
      label: '调整数量',
      kind: 'number',
      required: true,
      integer: true,
      min: -CREDIT_ADJUST_MAX,
      max: CREDIT_ADJUST_MAX,
      hint: `正数增加，负数扣除；当前 ${balance} ${credits}`,
      validate: (amount: number) =>
        amount === 0
          ? '调整数量不能为 0'
          : balance + amount < 0
            ? `余额不足，最多可扣除 ${balance} ${credits}`
            : undefined,
    },
    { name: 'reason', label: '原因', kind: 'textarea', required: true, maxLength: 255, hint: '会写入该用户的动态' },
  ];
  return (
    <>
      <Button size="small" theme="borderless" aria-label={`调整“${name}”的${credits}`} onClick={() => setOpen(true)}>
        调整{credits}
      </Button>
      {open && (
        <ActionDialog<CreditValues>
          idPrefix={`user-credit-${row.id ?? 0}`}
          title={`调整${credits} · ${name}`}
          okText="确定"
          fields={fields}
          initial={{ amount: undefined, reason: '' }}
          run={(values, context) =>
            adjustUserCredit({ id: row.id ?? 0, amount: values.amount ?? 0, reason: values.reason.trim() }, context)
          }
          success={`${credits}已调整`}
          failure="调整失败"
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
