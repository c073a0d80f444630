// Every payment notification that reached the notify routes, also those for no known order
// (a bad signature, a forged number): what /admin/order keeps for the admin to read.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { notificationOutcomeOptions } from '../../../../shared/vip';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Pager } from '../../ui/Pager';
import { Button } from '../../ui/semi';
import { SideSheet } from '../../ui/semi-admin';
import { EmptyState } from '../../ui/states';
import { notificationLogQuery } from './api';
import { NotificationList } from './OrderAdminActions';
import { sheetWidth } from '../../ui/fit';

const PAGE_SIZE = 20;

function NotificationLogSheet({ onClose }: { onClose: () => void }) {
  const [page, setPage] = useState(1);
  const [outcome, setOutcome] = useState<string>();
  const log = useQuery({ ...notificationLogQuery(outcome ?? '', page, PAGE_SIZE), placeholderData: keepPreviousData });
  return (
    <SideSheet visible title="支付通知记录" onCancel={onClose} width={sheetWidth(680)}>
      <div className="app-order-actions" role="group" aria-label="按结果筛选">
        {[{ value: undefined, label: '全部' }, ...notificationOutcomeOptions].map((o) => (
          <Button
            key={o.label}
            size="small"
            theme={outcome === o.value ? 'solid' : 'light'}
            onClick={() => {
              setOutcome(o.value);
              setPage(1);
            }}
          >
            {o.label}
          </Button>
        ))}
      </div>
      <QueryStates
        query={log}
        loadingRows={6}
        failure="支付通知加载失败"
        isEmpty={(data) => !data.notification?.length}
        empty={<EmptyState title="暂无支付通知" />}
      >
        {(data) => (
          <>
            <NotificationList notifications={data.notification ?? []} />
            <Pager page={page} size={PAGE_SIZE} total={data.total ?? 0} onChange={setPage} />
          </>
        )}
      </QueryStates>
    </SideSheet>
  );
}

export function PaymentNotificationLog() {
  const may = useMayCall();
  const [open, setOpen] = useState(false);
  if (!may(grpcPermissionPath('OrderAPI', 'ListPaymentNotification'))) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>支付通知记录</Button>
      {open && <NotificationLogSheet onClose={() => setOpen(false)} />}
    </>
  );
}
