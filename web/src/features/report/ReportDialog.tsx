// The 举报 dialog: one of docs/product.md §9's six reasons or 侵权（版权） (whose report must say who holds
// the rights), and the reader's own words (loaded on demand).
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { COPYRIGHT_REPORT_HINT, COPYRIGHT_REPORT_REASON, reportReasonOptions } from '../../../../shared/constants';
import { REPORT_REMARK_MAX_LENGTH, reportRemarkProblems } from '../../../../shared/validation';
import { unwrap } from '../../api/client';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { FieldMessage, TextAreaField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { Modal } from '../../ui/Modal';
import { createReport } from './api';
import './report.css';
import { dialogWidth } from '../../ui/fit';

export function ReportDialog({
  type,
  targetId,
  title,
  onClose,
}: {
  type: number;
  targetId: number;
  title: string;
  onClose: () => void;
}) {
  const [reason, setReason] = useState<number>();
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; remark?: string }>({});
  // A refused 提交举报 takes the keyboard to the first wrong field.
  const { ref: fields, focusFirstInvalid } = useFirstInvalidFocus<HTMLDivElement>();
  const send = useMutation({
    mutationFn: async (_: void, context) =>
      unwrap(await createReport({ type, document_id: targetId, reason, remark: remark.trim() }, context)),
    onSuccess: () => {
      toast.success('举报已提交', '我们会尽快核实处理，感谢你帮助维护社区环境。');
      onClose();
    },
    onError: (error) => toastFailure('举报失败', error),
  });
  const submit = () => {
    const next = {
      reason: reason ? undefined : '请选择举报原因',
      remark: reportRemarkProblems(remark.trim(), reason)[0],
    };
    setErrors(next);
    if (!next.reason && !next.remark) send.mutate();
    else focusFirstInvalid();
  };
  return (
    <Modal
      visible
      title="举报"
      onCancel={send.isPending ? undefined : onClose}
      maskClosable={!send.isPending}
      width={dialogWidth(480)}
      footer={
        <div className="app-report__footer">
          <Button onClick={onClose} disabled={send.isPending}>
            取消
          </Button>
          <Button type="danger" theme="solid" loading={send.isPending} onClick={submit}>
            提交举报
          </Button>
        </div>
      }
    >
      <div ref={fields}>
        <p className="app-report__target">举报“{title}”</p>
        <fieldset
          className="app-report__reasons"
          aria-describedby={errors.reason ? 'report-reason-message' : undefined}
        >
          <legend className="app-field__label">举报原因</legend>
          {reportReasonOptions.map((option) => (
            <label key={option.value} className="app-report__reason">
              <input
                type="radio"
                name="report-reason"
                value={option.value}
                checked={reason === option.value}
                aria-invalid={errors.reason ? true : undefined}
                onChange={() => {
                  setReason(option.value);
                  setErrors((e) => ({ ...e, reason: undefined }));
                }}
              />
              {option.label}
            </label>
          ))}
          <FieldMessage id="report-reason-message" error={errors.reason} />
        </fieldset>
        <TextAreaField
          id="report-remark"
          label={reason === COPYRIGHT_REPORT_REASON ? '补充说明' : '补充说明（选填）'}
          value={remark}
          onChange={(value) => {
            setRemark(value);
            setErrors((e) => ({ ...e, remark: undefined }));
          }}
          placeholder={reason === COPYRIGHT_REPORT_REASON ? COPYRIGHT_REPORT_HINT : '说明具体的问题，便于我们核实'}
          max={REPORT_REMARK_MAX_LENGTH}
          rows={3}
          error={errors.remark}
        />
      </div>
    </Modal>
  );
}
