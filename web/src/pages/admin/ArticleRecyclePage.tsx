// /admin/article/recycle: deleted articles, restored or removed for good (one by one, or all).
import { articleRecycleBin, recycledArticleResource } from '../../features/article/article-resource';
import { EmptyRecycleBinButton } from '../../kit/admin-resource/EmptyRecycleBinButton';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function ArticleRecyclePage() {
  return (
    <ResourceScreen
      resource={recycledArticleResource}
      headerExtra={<EmptyRecycleBinButton bin={articleRecycleBin} />}
    />
  );
}
