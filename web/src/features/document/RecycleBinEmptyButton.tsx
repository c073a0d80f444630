// 清空回收站: deletes every document in the recycle bin for good, after a confirmation.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { ConfirmDialog } from '../../kit/admin-resource/ConfirmDialog';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { emptyRecycleBin } from './api';
import { EMPTY_BIN } from './recycle-resource';

export function RecycleBinEmptyButton() {
  const may = useMayCall();
  const [asking, setAsking] = useState(false);
  const empty = useMutation({
    mutationFn: async (_: void, context) => unwrap(await emptyRecycleBin(context)),
    onSuccess: () => {
      toast.success('回收站已清空');
      setAsking(false);
    },
    onError: (error) => toastFailure('清空回收站失败', error),
  });
  if (!may(EMPTY_BIN)) return null;
  return (
    <>
      <Button type="danger" onClick={() => setAsking(true)}>
        清空回收站
      </Button>
      {asking && (
        <ConfirmDialog
          title="清空回收站"
          message="确定彻底删除回收站中的全部文档吗？此操作不可恢复。"
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
