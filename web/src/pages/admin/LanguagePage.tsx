// /admin/document/language: the documents' 行业 (industries).
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { languageResource } from '../../features/language/language-resource';

export function LanguagePage() {
  return <ResourceScreen resource={languageResource} />;
}
