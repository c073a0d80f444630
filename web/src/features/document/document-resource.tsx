// The admin's documents (/admin/document/list): filters (keyword, category, status, format,
// uploader), the status of each (docs/product.md §4's eight, with the conversion error of failed ones, in review too),
// batch review, reconversion, recommendation, category, industry, disabling and deletion (to
// the recycle bin), the edit form, and a link to the reader. Categories and industries come
// from the site's data, so the page builds this description in a useMemo.
import { DocumentStatus, documentStatusOptions, documentTypeOptions } from '../../../../shared/constants';
import { formatBytes } from '../../../../shared/format';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Document } from '../../../../shared/types/document';
import type { Language } from '../../../../shared/types/language';
import { dateColumn, TrailCell } from '../../kit/admin-resource/cells';
import { asList, keyword, listPage } from '../../kit/admin-resource/list-query';
import type {
  ActionInput,
  ChoiceValue,
  ListPage,
  ResourceDef,
  SelectOption,
  TreeOption,
} from '../../kit/admin-resource/resource';
import type { WriteContext } from '../../api/query-client';
import { UserPicker } from '../user/UserPicker';
import { categoryChoices, categoryTrail, type CategoryNode } from '../category/category-tree';
import {
  checkDocuments,
  deleteDocuments,
  documentKeys,
  documentProgressQuery,
  documentsById,
  listDocuments,
  pollWhileUnderway,
  recommendDocuments,
  reconvertDocuments,
  setDocumentsCategory,
  setDocumentsLanguage,
  updateDocument,
} from './api';
import { deepestCategory, documentPath } from './document-links';
import { conversionFailureLine, conversionUnderway, failedConversionReviewNote } from './conversion';
import { ConversionProgress } from './ConversionProgress';
import { DocumentStatusTag } from './DocumentStatusTag';
import { FormatIcon } from './FormatIcon';

type Values = {
  title: string;
  keywords: string;
  description: string;
  price: number | undefined;
  category: number | undefined;
  language: string | undefined;
  status: number | undefined;
};

const perm = (rpc: string) => grpcPermissionPath('DocumentAPI', rpc);

function toTreeOptions(nodes: readonly CategoryNode[]): TreeOption[] {
  return nodes.map((node) => ({
    value: node.id ?? 0,
    label: node.title ?? '',
    ...(node.children.length ? { children: toTreeOptions(node.children) } : {}),
  }));
}

function TitleCell({ doc }: { doc: Document }) {
  const failure = conversionFailureLine(doc);
  const review = failedConversionReviewNote(doc);
  return (
    <span className="app-admin-document__title">
      <span className="app-admin-document__name">
        <FormatIcon ext={doc.ext} />
        {doc.title || '未命名文档'}
        {doc.recommend_at && <span className="app-admin-document__flag">荐</span>}
      </span>
      <span className="app-resource-muted app-admin-document__meta">
        {doc.pages ? `${doc.pages} 页 · ${formatBytes(doc.size ?? 0)}` : formatBytes(doc.size ?? 0)}
      </span>
      {(doc.category ?? []).length > 0 && (
        <span className="app-resource-muted app-admin-document__meta">
          <TrailCell names={(doc.category ?? []).map((c) => c.title ?? '')} />
        </span>
      )}
      {conversionUnderway(doc) && <ConversionProgress doc={doc} reviewNote="审核通过后公开" listed />}
      {failure !== undefined && (
        <span className="app-admin-document__error">
          {failure}
          {review && `（${review}）`}
        </span>
      )}
    </span>
  );
}

/** Told to the uploaders with the rejection, in their 消息 centre. */
const rejectReason: ActionInput = {
  label: '拒绝原因（上传者可以看到）',
  maxLength: 255,
  placeholder: '如：内容与分类不符',
};

const single = (value: ChoiceValue | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The status an edit sends: the one picked, or, left as the form found it, the document's status
 * now. A conversion may have ended while the form was open: sending the status it had then would
 * queue it again (待转换) or be refused (转换中 is not settable), though the admin changed only a title.
 */
async function statusToSave(
  picked: number | undefined,
  row: Document,
  context: WriteContext,
): Promise<number | undefined> {
  if (picked === undefined || picked !== (row.status ?? DocumentStatus.Pending)) return picked;
  const now = await context.client.fetchQuery(documentProgressQuery(row.id ?? 0));
  return now.status ?? picked;
}

/**
 * The listed documents with those reconverted from this page that its filters (转换失败) no longer
 * match, in the list's order (newest first), so that the admin follows their new conversion.
 */
async function withKeptDocuments(rows: Document[], keep: readonly number[]): Promise<Document[]> {
  const missing = keep.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length === 0) return rows;
  const kept = await documentsById(missing);
  return [...rows, ...kept].sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
}

export function documentResource({
  categories,
  languages,
  credits,
}: {
  categories: readonly CategoryNode[];
  languages: readonly Language[];
  /** The site's name of its credits (creditName), a price's unit. */
  credits: string;
}): ResourceDef<Document, Values> {
  const categoryOptions: SelectOption[] = categoryChoices(categories).map(({ value, label }) => ({ value, label }));
  const languageOptions: SelectOption[] = languages.map((l) => ({
    value: l.code ?? '',
    label: l.language ?? l.code ?? '',
  }));
  const trail = (id: number | undefined) => categoryTrail(categories, id ?? 0).map((node) => node.id ?? 0);
  return {
    key: 'document',
    title: '文档列表',
    noun: '文档',
    counter: '篇',
    rowId: (row) => row.id ?? 0,
    rowLabel: (row) => row.title ?? '',
    columns: [
      { key: 'id', title: 'ID', width: 70 },
      // The pages, the size and the category under the title: with columns of their own the row
      // outgrew 957 px, or left a category name four characters a line.
      { key: 'title', title: '文档', render: (row) => <TitleCell doc={row} /> },
      { key: 'username', title: '上传者', width: 90, render: (row) => row.username || '-' },
      {
        key: 'price',
        title: '价格',
        width: 80,
        render: (row) => <span className="app-resource-nowrap">{row.price ? `${row.price} ${credits}` : '免费'}</span>,
      },
      { key: 'status', title: '状态', width: 90, render: (row) => <DocumentStatusTag status={row.status} /> },
      dateColumn('created_at', '上传时间'),
    ],
    filters: [
      { kind: 'keyword', name: 'wd', label: '关键字', placeholder: '标题、关键词或简介' },
      { kind: 'select', name: 'category', label: '分类', options: categoryOptions },
      { kind: 'select', name: 'status', label: '状态', options: documentStatusOptions },
      { kind: 'select', name: 'ext', label: '格式', options: documentTypeOptions },
      {
        kind: 'custom',
        name: 'user',
        label: '上传者',
        render: ({ id, value, onChange }) => (
          <div style={{ width: 200 }}>
            <UserPicker
              id={id}
              value={typeof value === 'number' ? [value] : []}
              onChange={(ids) => onChange(ids[ids.length - 1])}
              invalid={false}
            />
          </div>
        ),
      },
    ],
    listKey: documentKeys.admin,
    list: async ({ page, size, filters, keep }) => {
      const listed = await listPage(
        listDocuments({
          page,
          size,
          order: 'id desc',
          wd: keyword(filters.wd),
          category_id: asList(filters.category as number | undefined),
          status: asList(filters.status as number | undefined),
          ext: filters.ext as string | undefined,
          user_id: asList(filters.user as number | undefined),
        }),
        (reply) => reply.document,
      );
      return { ...listed, rows: await withKeptDocuments(listed.rows, keep) };
    },
    // Approved, reconverted or uploaded documents convert in the background, in review too:
    // the list follows them to the end as every screen showing conversions does (decision 047).
    polling: pollWhileUnderway<ListPage<Document>>((page) => (page?.rows ?? []).some(conversionUnderway)),
    rowActions: (row) => {
      const path = documentPath(row);
      return path ? (
        <a
          className="app-resource-link"
          href={path}
          target="_blank"
          rel="noopener"
          aria-label={`阅读“${row.title ?? ''}”`}
        >
          阅读
        </a>
      ) : null;
    },
    rowCommands: (row) =>
      row.status === DocumentStatus.Failed
        ? [
            {
              key: 'reconvert',
              label: '重新转换',
              confirm: `确定重新转换“${row.title ?? ''}”吗？`,
              run: (context) => reconvertDocuments([row.id ?? 0], context),
              success: '已加入转换队列',
              keepsRow: true,
              requires: perm('SetDocumentReconvert'),
            },
          ]
        : [],
    form: {
      fields: [
        { name: 'title', label: '标题', kind: 'text', required: true, maxLength: 255 },
        {
          name: 'category',
          label: '分类',
          kind: 'tree-select',
          required: true,
          options: () => toTreeOptions(categories),
        },
        { name: 'price', label: '价格', kind: 'number', min: 0, integer: true, half: true, hint: '0 表示免费下载' },
        { name: 'language', label: '行业', kind: 'select', options: languageOptions, half: true },
        { name: 'status', label: '状态', kind: 'select', options: documentStatusOptions, required: true },
        { name: 'keywords', label: '关键词', kind: 'text', maxLength: 255, hint: '多个关键词用逗号分隔' },
        { name: 'description', label: '简介', kind: 'textarea', maxLength: 512 },
      ],
      initial: (row) => ({
        title: row?.title ?? '',
        keywords: row?.keywords ?? '',
        description: row?.description ?? '',
        price: row?.price ?? 0,
        category: row ? deepestCategory(row) : undefined,
        language: row?.language || undefined,
        status: row?.status ?? DocumentStatus.Pending,
      }),
    },
    update: async (v, row, context) =>
      updateDocument(
        {
          id: row.id,
          title: v.title.trim(),
          keywords: v.keywords.trim(),
          description: v.description.trim(),
          price: v.price ?? 0,
          language: v.language ?? '',
          status: await statusToSave(v.status, row, context),
          category_id: trail(v.category),
        },
        context,
      ),
    remove: (ids, _confirmation, context) => deleteDocuments(ids, context),
    deletion: { recoverable: true, note: '删除的文档会移入回收站，可以在回收站恢复。' },
    requires: { update: perm('UpdateDocument'), remove: perm('DeleteDocument') },
    batchActions: [
      {
        key: 'approve',
        label: '审核通过',
        confirm: (count) => `确定审核通过选中的 ${count} 篇文档吗？尚未转换的文档会开始转换。`,
        run: (ids, context) => checkDocuments({ id: ids, status: DocumentStatus.Converted }, context),
        success: '已审核通过',
        requires: perm('CheckDocument'),
      },
      {
        key: 'reject',
        label: '审核拒绝',
        confirm: (count) => `确定拒绝选中的 ${count} 篇文档吗？`,
        input: rejectReason,
        run: (ids, context, reason) =>
          checkDocuments({ id: ids, status: DocumentStatus.ReviewRejected, reason: String(reason ?? '') }, context),
        success: '已拒绝',
        danger: true,
        requires: perm('CheckDocument'),
      },
      {
        key: 'reconvert',
        label: '重新转换',
        confirm: (count) => `确定重新转换选中的 ${count} 篇文档吗？`,
        run: (ids, context) => reconvertDocuments(ids, context),
        success: '已加入转换队列',
        keepsRows: true,
        requires: perm('SetDocumentReconvert'),
      },
      {
        key: 'recommend',
        label: '推荐',
        confirm: (count) => `确定推荐选中的 ${count} 篇文档吗？`,
        run: (ids, context) => recommendDocuments({ id: ids, type: 2 }, context),
        success: '已推荐',
        requires: perm('SetDocumentRecommend'),
      },
      {
        key: 'unrecommend',
        label: '取消推荐',
        confirm: (count) => `确定取消推荐选中的 ${count} 篇文档吗？`,
        run: (ids, context) => recommendDocuments({ id: ids, type: 0 }, context),
        success: '已取消推荐',
        requires: perm('SetDocumentRecommend'),
      },
      {
        key: 'category',
        label: '设置分类',
        confirm: (count) => `为选中的 ${count} 篇文档设置分类（替换原有分类）：`,
        choice: { label: '分类', options: categoryOptions, emptyMessage: '请选择分类' },
        run: (ids, context, choice) => setDocumentsCategory(ids, trail(Number(single(choice))), context),
        success: '分类已设置',
        requires: perm('SetDocumentsCategory'),
      },
      {
        key: 'language',
        label: '设置行业',
        confirm: (count) => `为选中的 ${count} 篇文档设置行业：`,
        choice: { label: '行业', options: languageOptions, emptyMessage: '请选择行业' },
        run: (ids, context, choice) => setDocumentsLanguage(ids, String(single(choice) ?? ''), context),
        success: '行业已设置',
        requires: perm('SetDocumentsLanguage'),
      },
      {
        key: 'disable',
        label: '禁用',
        confirm: (count) => `确定禁用选中的 ${count} 篇文档吗？禁用后访客无法阅读和下载。`,
        run: (ids, context) => checkDocuments({ id: ids, status: DocumentStatus.Disabled }, context),
        success: '已禁用',
        danger: true,
        requires: perm('CheckDocument'),
      },
    ],
  };
}
