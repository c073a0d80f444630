// 我的收藏 (/member/favorite): the member's favourite documents or, on the second tab
// (`?type=article`), articles; each removable in place.
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { formatBytes } from '../../../../shared/format';
import { articlePagePath } from '../../../../shared/page-paths';
import type { Favorite } from '../../../../shared/types/document';
import { unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { MemberListPanel, recordTime, type MemberListColumn } from '../../kit/member-list/MemberListPanel';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { EmptyState } from '../../ui/states';
import { TabSwitch } from '../../ui/TabSwitch';
import { DocumentRecordTitle } from '../document/DocumentRecordTitle';
import { favoritesQuery, FavoriteType, removeFavorites } from './api';

type Kind = 'document' | 'article';

const KINDS = [
  { key: 'document', label: '文档' },
  { key: 'article', label: '文章' },
] as const;

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
      accessibleName={`取消收藏“${favorite.title ?? ''}”`}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
    />
  );
}

/** A favourite article: its title linked to the article (the record outlives a deleted one). */
function ArticleRecordTitle({ record }: { record: Favorite }) {
  return record.document_id && record.title ? (
    <Link to={articlePagePath({ id: record.document_id, identifier: record.document_uuid })}>{record.title}</Link>
  ) : (
    <>{record.title ?? '已删除的文章'}</>
  );
}

const removeColumn: MemberListColumn<Favorite> = { title: '操作', cell: (f) => <RemoveFavorite favorite={f} /> };

/** What each tab lists: the favourites of one type, their columns and the empty state. */
const LISTS: Record<Kind, { type: FavoriteType; columns: MemberListColumn<Favorite>[]; empty: ReactNode }> = {
  document: {
    type: FavoriteType.Document,
    columns: [
      { title: '文档', cell: (f) => <DocumentRecordTitle record={f} /> },
      { title: '页数', cell: (f) => f.pages || '-' },
      { title: '大小', cell: (f) => (f.size ? formatBytes(f.size) : '-') },
      { title: '收藏时间', cell: (f) => recordTime(f.created_at) },
      removeColumn,
    ],
    empty: (
      <EmptyState title="暂无收藏的文档" description="在文档页面点击“收藏”，文档会显示在这里。">
        <Link to="/library">去文库看看</Link>
      </EmptyState>
    ),
  },
  article: {
    type: FavoriteType.Article,
    columns: [
      { title: '文章', cell: (f) => <ArticleRecordTitle record={f} /> },
      { title: '收藏时间', cell: (f) => recordTime(f.created_at) },
      removeColumn,
    ],
    empty: (
      <EmptyState title="暂无收藏的文章" description="在文章页面点击“收藏”，文章会显示在这里。">
        <Link to="/article">去看看文章</Link>
      </EmptyState>
    ),
  },
};

export function MyFavorites() {
  const [params, setParams] = useSearchParams();
  const kind: Kind = params.get('type') === 'article' ? 'article' : 'document';
  const tabs = (
    <TabSwitch<Kind>
      label="收藏类型"
      tabs={KINDS}
      active={kind}
      onChange={(next) => setParams(next === 'article' ? { type: 'article' } : {}, { replace: true })}
    />
  );
  const list = LISTS[kind];
  return (
    // A panel per tab (its key): the other tab starts again at its first page.
    <MemberListPanel
      key={kind}
      title="我的收藏"
      titleId="favorites-title"
      above={tabs}
      query={favoritesQuery(list.type)}
      rowsOf={(data) => data.favorite}
      failure="收藏加载失败"
      empty={list.empty}
      columns={list.columns}
    />
  );
}
