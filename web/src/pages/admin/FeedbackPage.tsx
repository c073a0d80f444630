// /admin/feedback: reply to and delete feedback.
import { feedbackResource } from '../../features/feedback/feedback-resource';
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';

export function FeedbackPage() {
  return <ResourceScreen resource={feedbackResource} />;
}
