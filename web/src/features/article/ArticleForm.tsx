// Writing a new article or editing one — title, categories, keywords, description and the
// body in the rich-text editor — checked against the same rules as the server before anything
// is sent. The admin's form (/admin/article/set) also sets the identifier and recommendation;
// a member's (/member/article/set) cannot, and goes back to 我的文章 saying whether the
// article waits for review.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link, useNavigate } from 'react-router-dom';
import { isAdminPageAllowed } from '../../../../shared/access';
import { ReviewStatus } from '../../../../shared/constants';
import { adminRoutes } from '../../../../shared/routes';
import type { Article } from '../../../../shared/types/article';
import { ARTICLE_LIMITS, articleIdentifierProblems, nameProblems, textProblems } from '../../../../shared/validation';
import { unwrap } from '../../api/client';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { retireFailure, toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { useSession } from '../session/use-session';
import { CheckboxGroupField, TextAreaField, TextField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { Switch } from '../../ui/semi-extra';
import { imageUploadTarget } from '../upload/api';
import { articlePath, articleQuery, createArticle, recommendArticles, updateArticle } from './api';
import { ArticleStatusTag, authorArticleStatusOptions } from './ArticleStatusTag';
import { RichTextEditor } from '../../kit/rich-text/RichTextEditor';
import { LeaveGuard } from '../../kit/routing/LeaveGuard';
import './article-admin.css';

type Field = 'title' | 'identifier' | 'keywords' | 'description' | 'content';

interface FormState {
  title: string;
  identifier: string;
  keywords: string;
  description: string;
  categoryIds: number[];
  recommend: boolean;
  content: string;
}

const stateOf = (article?: Article): FormState => ({
  title: article?.title ?? '',
  identifier: article?.identifier ?? '',
  keywords: article?.keywords ?? '',
  description: article?.description ?? '',
  categoryIds: article?.category_id ?? [],
  recommend: Boolean(article?.recommend_at),
  content: article?.content ?? '',
});

/** The body's text without markup, to tell an empty body from one with words or images. */
const hasBody = (html: string) =>
  /<img\s/i.test(html) ||
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim() !== '';

export function problemsOf(form: FormState): Partial<Record<Field, string>> {
  return {
    title: nameProblems(form.title, '文章标题', ARTICLE_LIMITS.title)[0],
    identifier: articleIdentifierProblems(form.identifier.trim())[0],
    keywords: textProblems(form.keywords, '文章关键字', ARTICLE_LIMITS.keywords)[0],
    description: textProblems(form.description, '文章摘要', ARTICLE_LIMITS.description)[0],
    content: !hasBody(form.content)
      ? '文章内容不能为空'
      : textProblems(form.content, '文章内容', ARTICLE_LIMITS.content)[0],
  };
}

const articleImages = imageUploadTarget('article');

/** Who writes: the admin (identifier and recommendation too) or a member, on their own articles. */
export type ArticleFormMode = 'admin' | 'member';

const MY_ARTICLES = '/member/article';
/** Where the admin adds the categories the form offers (文章分类), linked from the form while it has none. */
const CATEGORY_SCREEN = adminRoutes.find((route) => route.name === 'admin-article-category')?.path ?? '';

/** What a member is told after saving: published at once, or waiting for the review. */
function toastSavedByMember(saved: Article | undefined) {
  if (!saved) toast.success('文章已保存');
  else if (saved.status === ReviewStatus.Approved) toast.success('文章已发布');
  else toast.success('文章已提交，等待审核', '审核通过后其他人才能看到');
}

export function ArticleForm({
  article,
  categoryOptions,
  mode = 'admin',
}: {
  article?: Article;
  categoryOptions: { value: number; label: string }[];
  mode?: ArticleFormMode;
}) {
  const member = mode === 'member';
  const { allowPages } = useSession();
  // Only to a screen the admin may open: a role without it is told no more than a member.
  const noCategories =
    !member && isAdminPageAllowed(CATEGORY_SCREEN, allowPages) ? (
      <>
        暂无文章分类，请先在<Link to={CATEGORY_SCREEN}>文章分类</Link>中添加
      </>
    ) : (
      '暂无文章分类'
    );
  const navigate = useNavigate();
  const [form, setForm] = useState(() => stateOf(article));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  // A save its checks refuse takes the keyboard to the first wrong field (the body's editor too).
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  // Changed since it was opened or last saved: leaving then asks first.
  const [edited, setEdited] = useState(false);
  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) => {
      setEdited(true);
      setForm((f) => ({ ...f, [key]: value }));
      setErrors((e) => ({ ...e, [key]: undefined }));
    };

  const failureTitle = article?.id ? '保存失败' : '发布失败';
  const save = useMutation({
    mutationFn: async (_: void, context) => {
      const body: Article = {
        title: form.title.trim(),
        keywords: form.keywords.trim(),
        description: form.description.trim(),
        category_id: form.categoryIds,
        content: form.content,
        ...(member ? {} : { identifier: form.identifier.trim(), is_recommend: form.recommend }),
      };
      if (!article?.id) return unwrap(await createArticle(body, context));
      unwrap(await updateArticle({ ...body, id: article.id }, context));
      // UpdateArticle answers {}; the article tells whether the edit went back to review.
      if (member) return context.client.fetchQuery(articleQuery(String(article.id))).catch(() => undefined);
      // UpdateArticle only ever turns recommending on (contract); off is RecommendArticles.
      if (!form.recommend && article.recommend_at) unwrap(await recommendArticles([article.id], false, context));
      return undefined;
    },
    onSuccess: (saved) => {
      // Saved: nothing to lose any more, before any navigation below.
      flushSync(() => setEdited(false));
      retireFailure(failureTitle);
      if (member) {
        toastSavedByMember(saved);
        navigate(MY_ARTICLES);
      } else if (!article?.id && saved?.id) {
        toast.success('文章已发布');
        navigate(`/admin/article/set?id=${saved.id}`, { replace: true });
      } else {
        toast.success('文章已保存');
      }
    },
    onError: (error) => toastFailure(failureTitle, error),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A member's form has no identifier field: the one the article has is not theirs to fix.
    const next = problemsOf(member ? { ...form, identifier: '' } : form);
    setErrors(next);
    if (Object.values(next).some(Boolean)) {
      focusFirstInvalid();
      return;
    }
    save.mutate();
  };

  return (
    <form
      ref={formRef}
      className="app-article-form"
      onSubmit={submit}
      noValidate
      aria-label={article?.id ? '编辑文章' : '发布文章'}
    >
      <section className="app-panel">
        <TextField
          id="article-title"
          label="标题"
          value={form.title}
          onChange={set('title')}
          error={errors.title}
          placeholder="文章标题"
        />
        <div className="app-field">
          <span className="app-field__label" id="article-content-label">
            内容
          </span>
          <RichTextEditor
            id="article-content"
            documentKey={String(article?.id ?? 'new')}
            value={form.content}
            onChange={set('content')}
            upload={articleImages}
            invalid={Boolean(errors.content)}
            labelledBy="article-content-label"
            describedBy={errors.content ? 'article-content-message' : undefined}
          />
          {errors.content ? (
            <p id="article-content-message" className="app-field__error" role="alert">
              {errors.content}
            </p>
          ) : (
            <p className="app-field__hint">可以直接粘贴 Word 或网页中的内容（样式会被去掉）；图片请用工具栏上传。</p>
          )}
        </div>
      </section>
      <section className="app-panel app-article-form__side">
        {article?.id && (
          <p className="app-field__hint">
            状态：
            <ArticleStatusTag article={article} options={member ? authorArticleStatusOptions : undefined} />
            {article.status === ReviewStatus.Approved && (
              <>
                {' '}
                ·{' '}
                <Link to={articlePath(article)} target="_blank">
                  查看文章
                </Link>
              </>
            )}
          </p>
        )}
        {member && article?.status === ReviewStatus.Rejected && (
          <p className="app-field__error">
            {article.reject_reason ? `拒绝原因：${article.reject_reason}。` : '文章未通过审核。'}
            修改后保存会重新提交审核。
          </p>
        )}
        {!member && (
          <TextField
            id="article-identifier"
            label="文章标识"
            value={form.identifier}
            onChange={set('identifier')}
            error={errors.identifier}
            placeholder="如 about，留空自动生成"
            hint="用于文章地址 /article/detail/标识，只能包含字母、数字、下划线和短横线"
          />
        )}
        <CheckboxGroupField
          id="article-categories"
          label="分类"
          options={categoryOptions}
          value={form.categoryIds}
          onChange={set('categoryIds')}
          empty={noCategories}
        />
        <TextField
          id="article-keywords"
          label="关键字"
          value={form.keywords}
          onChange={set('keywords')}
          error={errors.keywords}
          placeholder="多个关键字用逗号分隔，留空从标题提取"
        />
        <TextAreaField
          id="article-description"
          label="摘要"
          value={form.description}
          onChange={set('description')}
          error={errors.description}
          max={ARTICLE_LIMITS.description}
          rows={4}
          placeholder="留空则取正文开头的文字"
        />
        {!member && (
          <div className="app-field">
            <label className="app-field__label" htmlFor="article-recommend">
              推荐
            </label>
            <Switch
              id="article-recommend"
              checked={form.recommend}
              onChange={(checked: boolean) => set('recommend')(checked)}
              aria-label="推荐"
            />
          </div>
        )}
        <LeaveGuard when={edited && !save.isPending} question="文章还没有保存，离开后修改的内容会丢失。确定离开吗？" />
        <div className="app-article-form__actions">
          <Button htmlType="submit" theme="solid" type="primary" loading={save.isPending}>
            {article?.id ? '保存' : '发布'}
          </Button>
          {member ? <Link to={MY_ARTICLES}>返回我的文章</Link> : <Link to="/admin/article/list">返回文章列表</Link>}
        </div>
      </section>
    </form>
  );
}
