// /admin/article/set: write an article, or edit the one of `?id=`.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { isPositiveId } from '../../../../shared/routes';
import { errorMessage } from '../../api/client';
import { articleQuery } from '../../features/article/api';
import { ArticleForm } from '../../features/article/ArticleForm';
import { CATEGORY_TYPE, allCategoriesQuery, categoryOptions } from '../../features/category/api';
import { Skeleton } from '../../ui/semi';
import { ErrorState } from '../../ui/states';

export function ArticleSetPage() {
  const [search] = useSearchParams();
  const raw = search.get('id') ?? '';
  const id = isPositiveId(raw) ? raw : '';
  const article = useQuery({ ...articleQuery(id), enabled: id !== '' });
  const categories = useQuery(allCategoriesQuery(CATEGORY_TYPE.article));
  const options = categoryOptions(categories.data ?? []);
  return (
    <div className="app-article-editor-page">
      <h1 className="app-admin-page__title">{id ? '编辑文章' : '发布文章'}</h1>
      {id && article.isPending ? (
        <Skeleton.Paragraph rows={12} />
      ) : id && article.isError ? (
        <ErrorState message={errorMessage(article.error, '文章加载失败')} onRetry={() => void article.refetch()} />
      ) : (
        <ArticleForm key={id || 'new'} article={id ? article.data : undefined} categoryOptions={options} />
      )}
    </div>
  );
}
