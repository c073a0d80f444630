import { searchRecordResource } from '../../features/search/search-record-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function SearchRecordPage() {
  return <ResourceScreen resource={searchRecordResource} />;
}
