// /admin/document/category: the document categories, as a tree.
import { CATEGORY_TYPE } from '../../features/category/api';
import { categoryResource } from '../../features/category/category-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

const documentCategories = categoryResource(CATEGORY_TYPE.document);

export function DocumentCategoryPage() {
  return <ResourceScreen resource={documentCategories} />;
}
