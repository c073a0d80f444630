// Create or edit one row in a side sheet: the described fields, checked before sending;
// a success closes the sheet (the feature's write has refreshed the list), a failure keeps
// the input and says why; a click beside the sheet does not throw away what was typed.
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { unwrap } from '../../api/client';
import { Button } from '../../ui/semi';
import { SideSheet } from '../../ui/semi-admin';
import { retireFailure, toastFailure } from '../toasts/failure-toast';
import { toast } from '../toasts/toast-store';
import { useFirstInvalidFocus } from '../forms/first-invalid';
import { FormFields } from './FormFields';
import type { FieldContext, FormMode, FormValues, ResourceDef } from './resource';
import { useFieldForm } from './use-field-form';
import { sheetWidth } from '../../ui/fit';

export interface ResourceFormSheetProps<Row, Values extends FormValues> {
  resource: ResourceDef<Row, Values>;
  mode: FormMode;
  record?: Row;
  rows: readonly Row[];
  onClose: () => void;
}

export function ResourceFormSheet<Row, Values extends FormValues>(props: ResourceFormSheetProps<Row, Values>) {
  const { resource, mode, record, rows, onClose } = props;
  const form = resource.form;
  const { values, errors, edited, change, check } = useFieldForm<Values>(() =>
    form ? form.initial(record) : ({} as Values),
  );
  const context: FieldContext<Row> = { mode, record, rows };
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const verb = mode === 'create' ? (resource.createVerb ?? '创建') : '保存';

  const save = useMutation({
    mutationFn: async (input: Values, context) => {
      if (mode === 'create' && resource.create) {
        unwrap(await resource.create(input, context));
        return resource.createdToast?.(input, context);
      }
      if (mode === 'edit' && resource.update && record !== undefined) {
        unwrap(await resource.update(input, record, context));
        return undefined;
      }
      throw new Error('nothing to save');
    },
    onSuccess: (said) => {
      retireFailure(`${verb}失败`);
      if (said) toast.success(said.title, said.description);
      else toast.success(`${verb}成功`, `${resource.noun}已${verb}`);
      onClose();
    },
    onError: (error) => {
      toastFailure(`${verb}失败`, error);
    },
  });

  if (!form) return null;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (check(form.fields, context)) save.mutate(values);
    else focusFirstInvalid();
  };

  const title = mode === 'create' ? (resource.createLabel ?? `新建${resource.noun}`) : `编辑${resource.noun}`;
  const formId = `${resource.key}-form`;
  return (
    <SideSheet
      visible
      title={title}
      onCancel={save.isPending ? undefined : onClose}
      width={sheetWidth(560)}
      // A click beside the sheet or Escape closes it only while nothing was typed: a stray click
      // or key must not throw away a half-filled form (取消 and ✕ still close it).
      maskClosable={!save.isPending && !edited}
      closeOnEsc={!edited}
      footer={
        <div className="app-resource-form__footer">
          <Button onClick={onClose} disabled={save.isPending}>
            取消
          </Button>
          <Button type="primary" theme="solid" htmlType="submit" form={formId} loading={save.isPending}>
            {verb}
          </Button>
        </div>
      }
    >
      <form ref={formRef} id={formId} className="app-resource-form" noValidate onSubmit={submit} aria-label={title}>
        <FormFields
          idPrefix={formId}
          fields={form.fields}
          values={values}
          errors={errors}
          context={context}
          onChange={change}
        />
      </form>
    </SideSheet>
  );
}
