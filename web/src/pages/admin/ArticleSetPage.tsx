// /admin/article/set: write an article, or edit the one of `?id=`. A role that may open the
// article screens but not write (or not update) is told so instead of a form it could not save.
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { isPositiveId } from '../../../../shared/routes';
import { errorMessage } from '../../api/client';
import { articleQuery } from '../../features/article/api';
import { ArticleForm } from '../../features/article/ArticleForm';
import { CATEGORY_TYPE, allCategoriesQuery, categoryOptions } from '../../features/category/api';
import { usePermissionCheck } from '../../features/session/use-session';
import { Skeleton } from '../../ui/semi';
import { ErrorState } from '../../ui/states';

export function ArticleSetPage() {
  const [search] = useSearchParams();
  const raw = search.get('id') ?? '';
  const id = isPositiveId(raw) ? raw : '';
  const article = useQuery({ ...articleQuery(id), enabled: id !== '' });
  const categories = useQuery(allCategoriesQuery(CATEGORY_TYPE.article));
  const options = categoryOptions(categories.data ?? []);
  const mayWrite = usePermissionCheck()(grpcPermissionPath('ArticleAPI', id ? 'UpdateArticle' : 'CreateArticle'));
  return (
    <div className="app-article-editor-page">
      <h1 className="app-admin-page__title">{id ? '编辑文章' : '发布文章'}</h1>
      {!mayWrite ? (
        <section className="app-panel">
          <p role="note">您没有{id ? '修改' : '发布'}文章的权限，请联系管理员。</p>
          <Link to="/admin/article/list">返回文章列表</Link>
        </section>
      ) : id && article.isPending ? (
        <Skeleton.Paragraph rows={12} />
      ) : id && article.isError ? (
        <ErrorState message={errorMessage(article.error, '文章加载失败')} onRetry={() => void article.refetch()} />
      ) : (
        <ArticleForm key={id || 'new'} article={id ? article.data : undefined} categoryOptions={options} />
      )}
    </div>
  );
}
