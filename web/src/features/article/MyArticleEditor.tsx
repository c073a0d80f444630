// 写文章 / 编辑文章 (/member/article/set, `?id=` to edit): the member's article form, once the
// server confirms the member may write (a new article) or the article is theirs (an edit).
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { isPositiveId } from '../../../../shared/routes';
import type { Article } from '../../../../shared/types/article';
import type { Category } from '../../../../shared/types/category';
import { errorMessage } from '../../api/client';
import { Skeleton } from '../../ui/semi';
import { EmptyState, ErrorState } from '../../ui/states';
import { CATEGORY_TYPE, categoryListQuery, categoryOptions } from '../category/api';
import { useSession } from '../session/use-session';
import { articleQuery, publishRightQuery } from './api';
import { ArticleForm } from './ArticleForm';
import './my-articles.css';

const MY_ARTICLES = '/member/article';

/** The enabled article categories, and those the article is filed under even if one was disabled since. */
function pickableCategories(all: readonly Category[], article: Article | undefined): Category[] {
  const enabled = all.filter((c) => c.type === CATEGORY_TYPE.article);
  const known = new Set(enabled.map((c) => c.id));
  return [...enabled, ...(article?.category ?? []).filter((c) => !known.has(c.id))];
}

function Refusal({ title, reason }: { title: string; reason: string }) {
  return (
    <div className="app-panel">
      <EmptyState title={title} description={reason}>
        <Link to={MY_ARTICLES}>返回我的文章</Link>
      </EmptyState>
    </div>
  );
}

/** A query's loading and error states in a panel; `ready` once it has its answer. */
function Loading<T>({
  query,
  failure,
  ready,
}: {
  query: UseQueryResult<T>;
  failure: string;
  ready: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <div className="app-panel">
        <Skeleton.Paragraph rows={10} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="app-panel">
        <ErrorState message={errorMessage(query.error, failure)} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  return ready(query.data);
}

export function MyArticleEditor() {
  const { user } = useSession();
  const userId = user?.id ?? 0;
  const [search] = useSearchParams();
  const raw = search.get('id') ?? '';
  const id = isPositiveId(raw) ? raw : '';
  const article = useQuery({ ...articleQuery(id), enabled: id !== '' });
  const right = useQuery({ ...publishRightQuery(userId), enabled: id === '' });
  const categories = useQuery(categoryListQuery());
  const form = (edited?: Article) => (
    <ArticleForm
      key={id || 'new'}
      mode="member"
      article={edited}
      categoryOptions={categoryOptions(pickableCategories(categories.data ?? [], edited))}
    />
  );
  return (
    <div className="app-article-editor-page">
      <h1 className="app-my-articles__heading">{id ? '编辑文章' : '写文章'}</h1>
      {id ? (
        <Loading
          query={article}
          failure="文章加载失败"
          ready={(data) =>
            data.user_id === userId ? form(data) : <Refusal title="不能编辑这篇文章" reason="只能编辑自己写的文章。" />
          }
        />
      ) : (
        <Loading
          query={right}
          failure="发布权限查询失败"
          ready={(data) =>
            data.allowed ? form() : <Refusal title="暂时不能写文章" reason={data.reason || '您没有发布文章的权限'} />
          }
        />
      )}
    </div>
  );
}
