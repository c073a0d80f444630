// The floating 意见反馈 button's dialog (loaded on demand).
import { Modal } from '../../ui/semi-admin';
import { FeedbackForm } from './FeedbackForm';

export function FeedbackDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal visible title="意见反馈" onCancel={onClose} footer={null} width="min(520px, calc(100vw - 32px))">
      <FeedbackForm onClose={onClose} />
    </Modal>
  );
}
