// /admin/article/list: the articles with their review state, filed under the article categories.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { articleResource } from '../../features/article/article-resource';
import { CATEGORY_TYPE, allCategoriesQuery } from '../../features/category/api';
import { usePermissionCheck } from '../../features/session/use-session';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function ArticleListPage() {
  const categories = useQuery(allCategoriesQuery(CATEGORY_TYPE.article));
  const holds = usePermissionCheck();
  const write = holds(grpcPermissionPath('ArticleAPI', 'CreateArticle'));
  const edit = holds(grpcPermissionPath('ArticleAPI', 'UpdateArticle'));
  const readAll = holds(grpcPermissionPath('ArticleAPI', 'GetArticle'));
  const resource = useMemo(
    () => articleResource(categories.data ?? [], edit, readAll),
    [categories.data, edit, readAll],
  );
  return (
    <ResourceScreen
      resource={resource}
      headerExtra={
        write && (
          <Link className="app-button-link" to="/admin/article/set">
            发布文章
          </Link>
        )
      }
    />
  );
}
