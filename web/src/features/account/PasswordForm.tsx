import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { WRONG_OLD_PASSWORD } from '../../../../shared/validation';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { useFormValues } from '../../kit/forms/use-form-values';
import { FAILURE_TITLE, retireFailure, toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { TextField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { userApi } from '../user/api';
import { checkConfirmation, checkPassword } from '../user/validation';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';

type PasswordField = 'old' | 'next' | 'confirmation';

/** Where a link to the password form points: `/member/profile#password`. */
export const PASSWORD_FORM_HASH = '#password';

/** The member's password: the old one, then the new one twice. */
export function PasswordForm() {
  const { form, setForm, set } = useFormValues<Record<PasswordField, string>>({ old: '', next: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors<PasswordField>>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const [saving, setSaving] = useState(false);
  const { hash } = useLocation();
  // Led here (the dashboard's 修改密码 of a new site): the form below the profile, brought into
  // view with the keyboard in its first field.
  useEffect(() => {
    if (hash !== PASSWORD_FORM_HASH) return;
    formRef.current?.scrollIntoView?.({ block: 'start' });
    document.getElementById('old-password')?.focus({ preventScroll: true });
  }, [hash, formRef]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<PasswordField>({
      old: form.old ? undefined : '请输入原密码',
      next: checkPassword(form.next, '新密码') ?? (form.next === form.old ? '新密码不能与原密码相同' : undefined),
      confirmation: checkConfirmation(form.next, form.confirmation),
    });
    setErrors(invalid ?? {});
    if (invalid) return focusFirstInvalid();
    setSaving(true);
    const result = await userApi.updatePassword({ old_password: form.old, new_password: form.next });
    setSaving(false);
    if (!result.ok && result.data.message === WRONG_OLD_PASSWORD) {
      // Said where it is to be mended, with the keyboard there, as the form's own checks are.
      setErrors({ old: WRONG_OLD_PASSWORD });
      return focusFirstInvalid();
    }
    if (!result.ok) {
      toastFailure(FAILURE_TITLE.profileUpdate, result);
      return;
    }
    setForm({ old: '', next: '', confirmation: '' });
    // The change ends the account's other sessions (docs/api.md §3), this one kept: the member is told.
    retireFailure(FAILURE_TITLE.profileUpdate);
    toast.success('修改成功', '密码已修改，其他设备和浏览器上的登录已退出，需用新密码重新登录');
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-labelledby="password-title">
      <h2 id="password-title" className="app-panel__title">
        修改密码
      </h2>
      <div className="app-profile__grid">
        <TextField
          id="old-password"
          label="原密码"
          type="password"
          value={form.old}
          onChange={set('old')}
          error={errors.old}
          autoComplete="current-password"
        />
        <TextField
          id="new-password"
          label="新密码"
          type="password"
          value={form.next}
          onChange={set('next')}
          error={errors.next}
          autoComplete="new-password"
          placeholder="至少 6 位"
        />
        <TextField
          id="confirm-password"
          label="确认新密码"
          type="password"
          value={form.confirmation}
          onChange={set('confirmation')}
          error={errors.confirmation}
          autoComplete="new-password"
        />
      </div>
      <div className="app-form-actions">
        <Button htmlType="submit" theme="solid" loading={saving}>
          修改密码
        </Button>
      </div>
    </form>
  );
}
