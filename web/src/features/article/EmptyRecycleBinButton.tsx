import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { unwrap } from '../../api/client';
import { ConfirmDialog } from '../../kit/admin-resource/ConfirmDialog';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { IconDelete } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { emptyArticleRecycleBin } from './api';

/** 清空回收站: every recycled article and its comments, for good, after a confirmation. */
export function EmptyRecycleBinButton() {
  const may = useMayCall();
  const [asking, setAsking] = useState(false);
  const empty = useMutation({
    mutationFn: async (_: void, context) => unwrap(await emptyArticleRecycleBin(context)),
    onSuccess: () => {
      toast.success('回收站已清空');
      setAsking(false);
    },
    onError: (error) => toastFailure('清空失败', error),
  });
  if (!may(grpcPermissionPath('ArticleAPI', 'EmptyRecycleArticle'))) return null;
  return (
    <>
      <Button type="danger" icon={<IconDelete />} onClick={() => setAsking(true)}>
        清空回收站
      </Button>
      {asking && (
        <ConfirmDialog
          title="清空回收站"
          message="确定永久删除回收站中的全部文章吗？它们的评论也会一起删除，此操作不可恢复。"
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
