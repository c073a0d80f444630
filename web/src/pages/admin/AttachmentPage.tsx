import { attachmentResource } from '../../features/attachment/attachment-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function AttachmentPage() {
  return <ResourceScreen resource={attachmentResource} />;
}
