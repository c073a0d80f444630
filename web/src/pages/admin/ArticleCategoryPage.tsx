// /admin/article/category: the article categories, as a tree.
import { CATEGORY_TYPE } from '../../features/category/api';
import { categoryResource } from '../../features/category/category-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

const articleCategories = categoryResource(CATEGORY_TYPE.article);

export function ArticleCategoryPage() {
  return <ResourceScreen resource={articleCategories} />;
}
