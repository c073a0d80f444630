// /admin/comment: review and delete comments.
import { commentResource } from '../../features/comment/comment-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function CommentPage() {
  return <ResourceScreen resource={commentResource} />;
}
