// 清空回收站 on a recycle-bin screen: everything in the bin, for good, after a confirmation;
// shown only to admins who may call it.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, type ApiResult } from '../../api/client';
import type { WriteContext } from '../../api/query-client';
import { Button } from '../../ui/semi';
import { toastFailure } from '../toasts/failure-toast';
import { toast } from '../toasts/toast-store';
import { ConfirmDialog } from './ConfirmDialog';
import { useMayCall } from './permission-check';

/** A recycle bin as its feature describes it. */
export interface RecycleBin {
  /** The permission path of the RPC that empties it. */
  permission: string;
  empty: (context: WriteContext) => Promise<ApiResult<unknown>>;
  /** The confirmation's question: what goes, and what goes with it. */
  confirmation: string;
}

export function EmptyRecycleBinButton({ bin }: { bin: RecycleBin }) {
  const may = useMayCall();
  const [asking, setAsking] = useState(false);
  const empty = useMutation({
    mutationFn: async (_: void, context) => unwrap(await bin.empty(context)),
    onSuccess: () => {
      toast.success('回收站已清空');
      setAsking(false);
    },
    onError: (error) => toastFailure('清空回收站失败', error),
  });
  if (!may(bin.permission)) return null;
  return (
    <>
      <Button type="danger" onClick={() => setAsking(true)}>
        清空回收站
      </Button>
      {asking && (
        <ConfirmDialog
          title="清空回收站"
          message={bin.confirmation}
          okText="清空"
          danger
          busy={empty.isPending}
          onConfirm={() => empty.mutate()}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}
