// The admin's articles (/admin/article/list) and their recycle bin (/admin/article/recycle):
// filters, review, recommending, filing under categories, deleting to the bin and back.
// Writing and editing happen on /admin/article/set.
import { Link } from 'react-router-dom';
import { articleStatusOptions, ReviewStatus } from '../../../../shared/constants';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Article } from '../../../../shared/types/article';
import type { Category } from '../../../../shared/types/category';
import { dateColumn } from '../../kit/admin-resource/cells';
import type { RecycleBin } from '../../kit/admin-resource/EmptyRecycleBinButton';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type { ActionInput, ColumnDef, ResourceDef } from '../../kit/admin-resource/resource';
import { Tag } from '../../ui/semi-extra';
import { categoryOptions } from '../category/api';
import {
  articleKeys,
  articlePath,
  checkArticles,
  deleteArticles,
  emptyArticleRecycleBin,
  listArticles,
  listRecycledArticles,
  purgeArticles,
  recommendArticles,
  restoreArticles,
  setArticlesCategory,
} from './api';
import { ArticleStatusTag } from './ArticleStatusTag';
import './article-admin.css';

const permission = (rpc: string) => grpcPermissionPath('ArticleAPI', rpc);

/**
 * The title opens the article's page: a published one for anybody, one in review (or refused) for a role holding
 * GetArticle (查阅所有状态文章), which the page serves with its 审核中 notice, so a reviewer reads it from the list.
 */
function TitleCell({ article, mayReadAll }: { article: Article; mayReadAll: boolean }) {
  const readable = !article.deleted_at && (article.status === ReviewStatus.Approved || mayReadAll);
  return (
    <span className="app-resource-stack">
      <span>
        {readable ? (
          <Link to={articlePath(article)} target="_blank">
            {article.title || '无标题'}
          </Link>
        ) : (
          article.title || '无标题'
        )}
        {article.recommend_at && (
          <Tag className="app-admin-article__flag" size="small" color="amber">
            推荐
          </Tag>
        )}
      </span>
      <span className="app-resource-muted">{article.identifier}</span>
    </span>
  );
}

const categoriesOf = (article: Article) => (article.category ?? []).map((c) => c.title).join('、') || '-';

/** What both the article list and the recycle bin show of an article (推荐 beside the title). */
const articleColumns = (mayReadAll = false): readonly ColumnDef<Article>[] => [
  { key: 'id', title: 'ID', width: 70 },
  { key: 'title', title: '标题', render: (row) => <TitleCell article={row} mayReadAll={mayReadAll} /> },
  { key: 'category', title: '分类', render: categoriesOf },
  { key: 'user', title: '作者', width: 90, render: (row) => row.user?.username ?? '-' },
  { key: 'status', title: '状态', width: 90, render: (row) => <ArticleStatusTag article={row} /> },
];

const RECOMMEND_FILTER = [
  { value: true, label: '已推荐' },
  { value: false, label: '未推荐' },
];

const rejectReason: ActionInput = {
  label: '拒绝原因（作者可以看到）',
  maxLength: 255,
  placeholder: '如：内容与主题无关',
};

/**
 * `mayEdit`: whether the user holds UpdateArticle (编辑 leads to a form only they could save); `mayReadAll`: whether
 * they hold GetArticle, which opens articles of every status.
 */
export function articleResource(
  categories: readonly Category[],
  mayEdit: boolean,
  mayReadAll = false,
): ResourceDef<Article> {
  const options = categoryOptions(categories);
  return {
    key: 'article',
    title: '文章列表',
    noun: '文章',
    counter: '篇',
    rowId: (row) => row.id ?? 0,
    rowLabel: (row) => row.title ?? '',
    columns: [
      ...articleColumns(mayReadAll),
      { key: 'view_count', title: '阅读', width: 70, render: (row) => row.view_count ?? 0 },
      { key: 'comment_count', title: '评论', width: 70, render: (row) => row.comment_count ?? 0 },
      dateColumn('created_at', '发布时间'),
    ],
    filters: [
      { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '标题、关键字或摘要' },
      { kind: 'select', name: 'status', label: '状态', options: articleStatusOptions },
      { kind: 'select', name: 'category_id', label: '分类', options },
      { kind: 'select', name: 'is_recommend', label: '推荐', options: RECOMMEND_FILTER },
    ],
    listKey: articleKeys.admin,
    list: ({ page, size, filters }) =>
      listPage(
        listArticles({
          page,
          size,
          wd: keyword(filters.wd),
          status: asList(filters.status as number | undefined),
          category_id: asList(filters.category_id as number | undefined),
          is_recommend: asList(filters.is_recommend as boolean | undefined),
        }),
        (r) => r.article,
      ),
    rowActions: mayEdit
      ? (row) => (
          <Link
            className="app-resource-link"
            to={`/admin/article/set?id=${row.id ?? ''}`}
            aria-label={`编辑“${row.title ?? ''}”`}
          >
            编辑
          </Link>
        )
      : undefined,
    remove: (ids, _confirmation, context) => deleteArticles(ids, context),
    deletion: { recoverable: true, note: '删除的文章会移入回收站，可以在回收站恢复。' },
    batchActions: [
      {
        key: 'approve',
        label: '审核通过',
        confirm: (n) => `确定让选中的 ${n} 篇文章通过审核吗？通过后所有人都能看到。`,
        run: (ids, context) => checkArticles({ article_id: ids, status: ReviewStatus.Approved }, context),
        success: '已审核通过',
        requires: permission('CheckArticles'),
      },
      {
        key: 'reject',
        label: '审核拒绝',
        confirm: (n) => `拒绝选中的 ${n} 篇文章，它们将不再公开显示。`,
        input: rejectReason,
        danger: true,
        run: (ids, context, reason) =>
          checkArticles(
            { article_id: ids, status: ReviewStatus.Rejected, rejeact_reason: String(reason ?? '') },
            context,
          ),
        success: '已拒绝',
        requires: permission('CheckArticles'),
      },
      {
        key: 'recommend',
        label: '推荐',
        confirm: (n) => `确定推荐选中的 ${n} 篇文章吗？`,
        run: (ids, context) => recommendArticles(ids, true, context),
        success: '已推荐',
        requires: permission('RecommendArticles'),
      },
      {
        key: 'unrecommend',
        label: '取消推荐',
        confirm: (n) => `确定取消推荐选中的 ${n} 篇文章吗？`,
        run: (ids, context) => recommendArticles(ids, false, context),
        success: '已取消推荐',
        requires: permission('RecommendArticles'),
      },
      {
        key: 'category',
        label: '设置分类',
        confirm: (n) => `为选中的 ${n} 篇文章设置分类（替换原有分类）。`,
        choice: { label: '分类', options, multiple: true, emptyMessage: '请选择分类' },
        run: (ids, context, picked) =>
          setArticlesCategory(ids, (Array.isArray(picked) ? picked : [picked ?? 0]).map(Number), context),
        success: '分类已设置',
        requires: permission('SetArticlesCategory'),
      },
    ],
    requires: { remove: permission('DeleteArticle') },
  };
}

/** The bin that the page's 清空回收站 button empties: every recycled article and its comments. */
export const articleRecycleBin: RecycleBin = {
  permission: permission('EmptyRecycleArticle'),
  empty: emptyArticleRecycleBin,
  confirmation: '确定彻底删除回收站中的全部文章吗？它们的评论也会一起删除，此操作不可恢复。',
};

export const recycledArticleResource: ResourceDef<Article> = {
  key: 'article-recycle',
  title: '文章回收站',
  noun: '文章',
  counter: '篇',
  rowId: (row) => row.id ?? 0,
  rowLabel: (row) => row.title ?? '',
  columns: [...articleColumns(), dateColumn('deleted_at', '删除时间')],
  filters: [{ kind: 'keyword', name: 'wd', label: '关键字', placeholder: '标题、摘要或正文' }],
  listKey: articleKeys.recycle,
  list: ({ page, size, filters }) =>
    listPage(listRecycledArticles({ page, size, wd: keyword(filters.wd) }), (r) => r.article),
  rowCommands: (row) => [
    {
      key: 'restore',
      label: '恢复',
      confirm: `确定恢复文章“${row.title ?? ''}”吗？`,
      success: '已恢复',
      run: (context) => restoreArticles([row.id ?? 0], context),
      requires: permission('RestoreRecycleArticle'),
    },
  ],
  batchActions: [
    {
      key: 'restore',
      label: '批量恢复',
      confirm: (n) => `确定恢复选中的 ${n} 篇文章吗？`,
      success: '已恢复',
      run: (ids, context) => restoreArticles(ids, context),
      requires: permission('RestoreRecycleArticle'),
    },
  ],
  remove: (ids, _confirmation, context) => purgeArticles(ids, context),
  deletion: { note: '文章及其评论将被彻底删除。' },
  requires: { remove: permission('DeleteRecycleArticle') },
};
