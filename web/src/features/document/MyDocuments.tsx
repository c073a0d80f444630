// 我的文档 (/member/document): the member's uploads with their status, an edit form (title,
// category, price, keywords, description) and delete (to the recycle bin), confirmed in place.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { DocumentStatus } from '../../../../shared/constants';
import type { Document } from '../../../../shared/types/document';
import { unwrap } from '../../api/client';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { RightLink } from '../../kit/rights/RightLink';
import { checkMaxLength, type Errors } from '../../kit/forms/checks';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { MemberListPanel, recordTime } from '../../kit/member-list/MemberListPanel';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { FieldMessage, TextField } from '../../ui/FormField';
import { Panel } from '../../ui/Panel';
import { Button } from '../../ui/semi';
import { EmptyState } from '../../ui/states';
import { CategorySelect } from '../category/CategorySelect';
import { uploadRightQuery } from '../upload/api';
import { categoryTrail, useDocumentCategories } from '../category/category-tree';
import { useSettings } from '../settings/use-settings';
import { deleteDocuments, myDocumentsQuery, updateOwnDocument } from './api';
import { conversionFailureLine, conversionUnderway, failedConversionAdvice } from './conversion';
import { ConversionProgress } from './ConversionProgress';
import { deepestCategory, documentPath } from './document-links';
import { creditName } from './DocumentPrice';
import { DocumentStatusTag } from './DocumentStatusTag';
import { checkDetails } from './upload-queue';
import { FormatIcon } from './FormatIcon';
import { LeaveGuard, LeaveQuestion } from '../../kit/routing/LeaveGuard';

type EditField = 'title' | 'category' | 'price' | 'keywords' | 'description';

const UNSAVED_QUESTION = '文档信息还没有保存，离开后修改的内容会丢失。确定离开吗？';

/**
 * The form of `doc`. `onEdited` hears whether it holds changes not saved; `replacing` is another
 * row's 编辑 pressed meanwhile, asked about here as a move to another screen is (LeaveGuard).
 */
function DocumentEditForm({
  doc,
  onDone,
  onEdited,
  replacing,
  onReplace,
}: {
  doc: Document;
  onDone: () => void;
  onEdited: (edited: boolean) => void;
  replacing?: Document;
  onReplace: (leave: boolean) => void;
}) {
  const tree = useDocumentCategories();
  const credits = creditName(useSettings());
  const [title, setTitle] = useState(doc.title ?? '');
  const [categoryId, setCategoryId] = useState<number | undefined>(deepestCategory(doc));
  const [price, setPrice] = useState(String(doc.price ?? 0));
  const [keywords, setKeywords] = useState(doc.keywords ?? '');
  const [description, setDescription] = useState(doc.description ?? '');
  const [errors, setErrors] = useState<Errors<EditField>>({});
  // Typed and not saved: a move to another screen asks first, as the profile form does.
  const edited =
    title !== (doc.title ?? '') ||
    categoryId !== deepestCategory(doc) ||
    price !== String(doc.price ?? 0) ||
    keywords !== (doc.keywords ?? '') ||
    description !== (doc.description ?? '');
  useEffect(() => onEdited(edited), [edited, onEdited]);
  // The form opens above the list: brought into view with its title field focused, or a 编辑
  // pressed far down the list (on a phone, any row but the first) would seem to do nothing.
  // A save its checks refuse takes the keyboard to the first wrong field.
  const { ref: form, focusFirstInvalid } = useFirstInvalidFocus();
  useEffect(() => {
    form.current?.closest('section')?.scrollIntoView?.({ block: 'start' });
    form.current?.querySelector<HTMLInputElement>('#edit-title')?.focus({ preventScroll: true });
  }, [form]);
  const save = useMutation({
    mutationFn: (_: void, context) =>
      updateOwnDocument(
        {
          id: doc.id,
          title: title.trim(),
          price: Number(price),
          keywords: keywords.trim(),
          description: description.trim(),
          language: doc.language,
          category_id: categoryTrail(tree, categoryId ?? 0).map((node) => node.id ?? 0),
        },
        context,
      ),
    onSuccess: (status) => {
      // New words of a published document wait for the review again, as the upload did.
      if (doc.status === DocumentStatus.Converted && status === DocumentStatus.PendingReview)
        toast.success('文档已保存，等待审核', '审核通过后其他人才能看到');
      else toast.success('保存成功');
      onDone();
    },
    onError: (error) => toastFailure('保存失败', error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The upload's checks of the same details (upload-queue.ts), and the keywords.
    const details = checkDetails({ title, categoryId, price, description });
    const keywordsError = checkMaxLength(keywords.trim(), 255, '关键词');
    const found: Errors<EditField> | null =
      details || keywordsError ? { ...details, ...(keywordsError ? { keywords: keywordsError } : {}) } : null;
    setErrors(found ?? {});
    if (found) focusFirstInvalid();
    else save.mutate();
  };
  return (
    <Panel title={`编辑文档“${doc.title ?? ''}”`} titleId="my-document-edit-title">
      <form ref={form} onSubmit={submit} noValidate className="app-my-documents__form">
        <TextField
          id="edit-title"
          label="标题"
          value={title}
          onChange={setTitle}
          error={errors.title}
          maxLength={255}
        />
        <div className="app-field">
          <label className="app-field__label" htmlFor="edit-category">
            分类
          </label>
          <CategorySelect
            id="edit-category"
            tree={tree}
            value={categoryId}
            onChange={setCategoryId}
            invalid={Boolean(errors.category)}
            describedBy={errors.category ? 'edit-category-message' : undefined}
          />
          <FieldMessage id="edit-category-message" error={errors.category} />
        </div>
        <TextField
          id="edit-price"
          label="价格"
          value={price}
          onChange={setPrice}
          error={errors.price}
          hint={`下载所需${credits}，0 表示免费下载`}
        />
        <TextField
          id="edit-keywords"
          label="关键词"
          value={keywords}
          onChange={setKeywords}
          error={errors.keywords}
          hint="多个关键词用逗号分隔"
        />
        <div className="app-field">
          <label className="app-field__label" htmlFor="edit-description">
            简介
          </label>
          <textarea
            id="edit-description"
            className="app-textarea"
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? 'edit-description-message' : undefined}
          />
          <FieldMessage id="edit-description-message" error={errors.description} />
        </div>
        <div className="app-form-actions">
          <Button htmlType="submit" type="primary" theme="solid" loading={save.isPending}>
            保存
          </Button>
          <Button onClick={onDone}>取消</Button>
        </div>
        <LeaveGuard when={edited && !save.isPending} question={UNSAVED_QUESTION} />
        {replacing && (
          <LeaveQuestion
            question={UNSAVED_QUESTION}
            label="离开编辑"
            onLeave={() => onReplace(true)}
            onStay={() => onReplace(false)}
          />
        )}
      </form>
    </Panel>
  );
}

function DeleteDocument({ doc, onDeleted }: { doc: Document; onDeleted: () => void }) {
  const settings = useSettings();
  // The site takes credits back for a delete (score.delete_document): said before, not found after.
  const penalty = settings.system?.delete_document_credits ?? 0;
  const remove = useMutation({
    mutationFn: async (_: void, context) => unwrap(await deleteDocuments([doc.id ?? 0], context)),
    onSuccess: () => {
      onDeleted();
      // The backend moves it to the admins' recycle bin, a screen a member does not have: the
      // member reads that it is gone and whom to ask to have it back (docs/product.md).
      toast.success('删除成功', `“${doc.title ?? ''}”已删除。如需恢复，请联系网站管理员。`);
    },
    onError: (error) => toastFailure('删除失败', error),
  });
  return (
    <InlineConfirm
      label="删除"
      question={penalty > 0 ? `确定删除？删除后将扣除 ${penalty} ${creditName(settings)}` : '确定删除？'}
      accessibleName={`删除“${doc.title ?? ''}”`}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
    />
  );
}

/** The empty list's way to a first upload: 上传文档, or why the member may not upload. */
function FirstUpload({ userId }: { userId: number }) {
  return (
    <RightLink
      right={uploadRightQuery(userId)}
      to="/upload"
      label="上传文档"
      action="上传文档"
      fallback="您没有上传文档的权限"
    />
  );
}

const editButtonId = (doc: Document) => `my-document-edit-${doc.id ?? 0}`;

/**
 * What a status that keeps the document from others means to its uploader: a review's outcome
 * (a rejection's message sends them here) or a document an admin disabled.
 */
const NOT_PUBLIC_NOTES: Partial<Record<number, string>> = {
  [DocumentStatus.PendingReview]: '审核通过后公开，目前仅您和管理员可以阅读。',
  [DocumentStatus.ReviewRejected]: '未通过审核，其他人无法阅读或下载。如有疑问，请联系网站管理员。',
  [DocumentStatus.Disabled]: '已被管理员禁用，其他人无法阅读或下载。如有疑问，请联系网站管理员。',
};

/** What 待审核 means to its uploader while the file still converts (after 等待转换 or 转换中, as its progress says). */
const REVIEW_CONVERSION_NOTE = '转换完成后您和管理员可以阅读，审核通过后公开。';

export function MyDocuments({ userId }: { userId: number }) {
  const credits = creditName(useSettings());
  const [editing, setEditing] = useState<Document>();
  // Another row's 编辑 pressed while the open form holds changes: it waits for the member's answer.
  const [replacing, setReplacing] = useState<Document>();
  const [edited, setEdited] = useState(false);
  const edit = (doc: Document) => {
    if (editing && editing.id !== doc.id && edited) setReplacing(doc);
    else setEditing(doc);
  };
  return (
    <>
      {editing && (
        <DocumentEditForm
          key={editing.id}
          doc={editing}
          onDone={() => {
            setEditing(undefined);
            setReplacing(undefined);
            setEdited(false);
            // Saved or not, the keyboard goes back to the row's 编辑, not to the page's top.
            document.getElementById(editButtonId(editing))?.focus();
          }}
          onEdited={setEdited}
          replacing={replacing}
          onReplace={(leave) => {
            if (leave) setEditing(replacing);
            setReplacing(undefined);
          }}
        />
      )}
      <MemberListPanel
        title="我的文档"
        titleId="my-documents-title"
        query={(page, size) => myDocumentsQuery(userId, page, size)}
        rowsOf={(data) => data.document}
        failure="文档列表加载失败"
        empty={
          <EmptyState title="暂无文档" description="上传的文档会显示在这里。">
            <FirstUpload userId={userId} />
          </EmptyState>
        }
        columns={[
          {
            title: '文档',
            cell: (doc) => {
              const path = documentPath(doc);
              return (
                <span className="app-my-documents__title">
                  <FormatIcon ext={doc.ext} />
                  {/* The reader shows its uploader any of their documents: its pages, or where it stands. */}
                  {path ? <Link to={path}>{doc.title}</Link> : doc.title}
                </span>
              );
            },
          },
          {
            title: '状态',
            cell: (doc) => {
              const failure = conversionFailureLine(doc);
              return (
                <>
                  <DocumentStatusTag status={doc.status} />
                  {failure !== undefined ? (
                    <>
                      <p className="app-field__error">{failure}</p>
                      <p className="app-field__hint">{failedConversionAdvice(doc)}</p>
                    </>
                  ) : conversionUnderway(doc) ? (
                    // Queued or converting (in review too, with nothing to read yet): how far, asked again until it ends.
                    <div className="app-my-documents__conversion">
                      <ConversionProgress doc={doc} reviewNote={REVIEW_CONVERSION_NOTE} />
                    </div>
                  ) : (
                    NOT_PUBLIC_NOTES[doc.status ?? DocumentStatus.Pending] && (
                      <p className="app-field__hint">{NOT_PUBLIC_NOTES[doc.status ?? DocumentStatus.Pending]}</p>
                    )
                  )}
                </>
              );
            },
          },
          { title: '页数', cell: (doc) => doc.pages || '-' },
          { title: '价格', cell: (doc) => (doc.price ? `${doc.price} ${credits}` : '免费') },
          { title: '上传时间', cell: (doc) => recordTime(doc.created_at) },
          {
            title: '操作',
            cell: (doc) => (
              <span className="app-my-documents__actions">
                <Button
                  id={editButtonId(doc)}
                  size="small"
                  theme="borderless"
                  onClick={() => edit(doc)}
                  aria-label={`编辑“${doc.title ?? ''}”`}
                >
                  编辑
                </Button>
                {/* its edit form, if open, goes with it: a save would edit a document in the recycle bin */}
                <DeleteDocument
                  doc={doc}
                  onDeleted={() => {
                    setEditing((open) => (open?.id === doc.id ? undefined : open));
                    setReplacing((asked) => (asked?.id === doc.id ? undefined : asked));
                  }}
                />
              </span>
            ),
          },
        ]}
      />
    </>
  );
}
