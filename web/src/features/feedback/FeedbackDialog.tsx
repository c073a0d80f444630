// The floating 意见反馈 button's dialog (loaded on demand).
import { Modal } from '../../ui/Modal';
import { FeedbackForm } from './FeedbackForm';
import { dialogWidth } from '../../ui/fit';

export function FeedbackDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal visible title="意见反馈" onCancel={onClose} footer={null} width={dialogWidth(520)}>
      <FeedbackForm onClose={onClose} />
    </Modal>
  );
}
