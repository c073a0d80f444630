// A one-row change that needs input besides a yes (a reason, a number of days): the question,
// described fields checked before sending, and the feature's write run through react-query.
// A success closes the dialog with a toast; a failure keeps the input and says why.
import { useMutation } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { unwrap, type ApiResult } from '../../api/client';
import type { WriteContext } from '../../api/query-client';
import { Button } from '../../ui/semi';
import { Modal } from '../../ui/semi-admin';
import { retireFailure, toastFailure } from '../toasts/failure-toast';
import { toast } from '../toasts/toast-store';
import { useFirstInvalidFocus } from '../forms/first-invalid';
import { FormFields } from './FormFields';
import type { FieldDef, FormValues } from './resource';
import { useFieldForm } from './use-field-form';
import './admin-resource.css';
import { dialogWidth } from '../../ui/fit';

export interface ActionDialogProps<Values extends FormValues> {
  /** Prefix of the input ids, unique on the page. */
  idPrefix: string;
  title: string;
  message?: ReactNode;
  okText: string;
  danger?: boolean;
  fields: readonly FieldDef<Values>[];
  initial: Values;
  run: (values: Values, context: WriteContext) => Promise<ApiResult<unknown>>;
  success: string;
  failure: string;
  onClose: () => void;
}

export function ActionDialog<Values extends FormValues>(props: ActionDialogProps<Values>) {
  const { idPrefix, title, message, okText, danger, fields, initial, run, success, failure, onClose } = props;
  const { values, errors, edited, change, check } = useFieldForm<Values>(() => initial);
  const context = { mode: 'edit' as const, rows: [] };
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const action = useMutation({
    mutationFn: async (input: Values, mutation) => unwrap(await run(input, mutation)),
    onSuccess: () => {
      retireFailure(failure);
      toast.success(success);
      onClose();
    },
    onError: (error) => toastFailure(failure, error),
  });
  const formId = `${idPrefix}-form`;
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (check(fields, context)) action.mutate(values);
    else focusFirstInvalid();
  };
  return (
    <Modal
      visible
      title={title}
      onCancel={action.isPending ? undefined : onClose}
      // A stray click beside the dialog must not throw away what was written (取消 still closes it).
      maskClosable={!action.isPending && !edited}
      width={dialogWidth(480)}
      footer={
        <div className="app-resource-form__footer">
          <Button onClick={onClose} disabled={action.isPending}>
            取消
          </Button>
          <Button
            type={danger ? 'danger' : 'primary'}
            theme="solid"
            htmlType="submit"
            form={formId}
            loading={action.isPending}
          >
            {okText}
          </Button>
        </div>
      }
    >
      {message && <div className="app-confirm__message">{message}</div>}
      <form ref={formRef} id={formId} className="app-resource-form" noValidate onSubmit={submit} aria-label={title}>
        <FormFields
          idPrefix={formId}
          fields={fields}
          values={values}
          errors={errors}
          context={context}
          onChange={change}
        />
      </form>
    </Modal>
  );
}
