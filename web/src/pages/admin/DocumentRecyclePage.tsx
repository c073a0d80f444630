import { documentRecycleBin, recycleResource } from '../../features/document/recycle-resource';
import { EmptyRecycleBinButton } from '../../kit/admin-resource/EmptyRecycleBinButton';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function DocumentRecyclePage() {
  return <ResourceScreen resource={recycleResource} headerExtra={<EmptyRecycleBinButton bin={documentRecycleBin} />} />;
}
