import { recycleResource } from '../../features/document/recycle-resource';
import { RecycleBinEmptyButton } from '../../features/document/RecycleBinEmptyButton';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function DocumentRecyclePage() {
  return <ResourceScreen resource={recycleResource} headerExtra={<RecycleBinEmptyButton />} />;
}
