import { useMemo } from 'react';
import { useDocumentCategories } from '../../features/category/category-tree';
import { documentResource } from '../../features/document/document-resource';
import { useSettings } from '../../features/settings/use-settings';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function DocumentListPage() {
  const categories = useDocumentCategories();
  const { language } = useSettings();
  const resource = useMemo(() => documentResource({ categories, languages: language ?? [] }), [categories, language]);
  return <ResourceScreen resource={resource} />;
}
