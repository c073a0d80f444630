import { useMemo } from 'react';
import { useDocumentCategories } from '../../features/category/category-tree';
import { creditName } from '../../features/document/DocumentPrice';
import { documentResource } from '../../features/document/document-resource';
import { useSettings } from '../../features/settings/use-settings';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function DocumentListPage() {
  const categories = useDocumentCategories();
  const settings = useSettings();
  const { language } = settings;
  const credits = creditName(settings);
  const resource = useMemo(
    () => documentResource({ categories, languages: language ?? [], credits }),
    [categories, language, credits],
  );
  return <ResourceScreen resource={resource} />;
}
