// 我的收藏 (/member/favorite): the member's favourite documents, each removable in place.
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import type { Favorite } from '../../../../shared/types/document';
import { unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { MemberListPanel, recordTime } from '../../kit/member-list/MemberListPanel';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { EmptyState } from '../../ui/states';
import { DocumentRecordTitle } from '../document/DocumentRecordTitle';
import { favoritesQuery, removeFavorites } from './api';

function RemoveFavorite({ favorite }: { favorite: Favorite }) {
  const remove = useMutation({
    mutationFn: async (_: void, context) => unwrap(await removeFavorites([favorite.id ?? 0], context)),
    onSuccess: () => toast.success('已取消收藏'),
    onError: (error) => toastFailure('取消收藏失败', error),
  });
  return (
    <InlineConfirm
      label="取消收藏"
      question="确定取消收藏？"
      accessibleName={`取消收藏「${favorite.title ?? ''}」`}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
    />
  );
}

export function MyFavorites() {
  return (
    <MemberListPanel
      title="我的收藏"
      titleId="favorites-title"
      query={favoritesQuery}
      rowsOf={(data) => data.favorite}
      failure="收藏加载失败"
      empty={
        <EmptyState title="暂无收藏" description="在文档页面点击“收藏”，文档会显示在这里。">
          <Link to="/library">去文库看看</Link>
        </EmptyState>
      }
      columns={[
        {
          title: '文档',
          cell: (f) => <DocumentRecordTitle record={f} />,
        },
        { title: '页数', cell: (f) => f.pages || '-' },
        { title: '大小', cell: (f) => (f.size ? formatBytes(f.size) : '-') },
        { title: '收藏时间', cell: (f) => recordTime(f.created_at) },
        { title: '操作', cell: (f) => <RemoveFavorite favorite={f} /> },
      ]}
    />
  );
}
