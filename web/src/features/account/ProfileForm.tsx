import { useState, type FormEvent } from 'react';
import type { User } from '../../../../shared/types/user';
import { checkMaxLength, collectErrors, type Errors } from '../../kit/forms/checks';
import { useFormValues } from '../../kit/forms/use-form-values';
import { FAILURE_TITLE, retireFailure, toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { TextField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { mergeUser } from '../session/session-store';
import { useSession } from '../session/use-session';
import { userApi } from '../user/api';
import { checkEmail, takenField } from '../user/validation';
import { AvatarUpload } from './AvatarUpload';
import { EmailField } from '../auth/AuthFields';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';
import { LeaveGuard } from '../../kit/routing/LeaveGuard';

// The mobile number is not among them: it changes only by SMS code (MobileBinding).
type ProfileField = 'realname' | 'email' | 'identity' | 'address' | 'signature';
const PROFILE_FIELDS: readonly ProfileField[] = ['realname', 'email', 'identity', 'address', 'signature'];

function profileOf(user: User | null): Record<ProfileField, string> {
  return Object.fromEntries(PROFILE_FIELDS.map((f) => [f, user?.[f] ?? ''])) as Record<ProfileField, string>;
}

/** The member's profile; a save merges the fields into the session's user. */
export function ProfileForm({ user }: { user: User }) {
  const { user: signedIn } = useSession();
  const { form, setForm, set } = useFormValues(() => profileOf(user));
  const [errors, setErrors] = useState<Errors<ProfileField>>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const [saving, setSaving] = useState(false);
  // What the server holds: a move to another screen with other values typed asks first, as 写文章 does.
  const [saved, setSaved] = useState(() => profileOf(user));
  const edited = PROFILE_FIELDS.some((f) => form[f] !== saved[f]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<ProfileField>({
      realname: checkMaxLength(form.realname, 32, '真实姓名'),
      email: checkEmail(form.email, false),
      identity: checkMaxLength(form.identity, 32, '身份'),
      address: checkMaxLength(form.address, 128, '地址'),
      signature: checkMaxLength(form.signature, 255, '个性签名'),
    });
    setErrors(invalid ?? {});
    if (invalid) return focusFirstInvalid();
    if (!user.id) return;
    const fields = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, form[f].trim()])) as Record<ProfileField, string>;
    setSaving(true);
    // The backend writes every profile column, so the current avatar and mobile number (an
    // upload or a binding on this screen changes them in the session) are sent along.
    const result = await userApi.updateProfile({
      id: user.id,
      avatar: signedIn?.avatar ?? user.avatar ?? '',
      mobile: signedIn?.mobile ?? user.mobile ?? '',
      ...fields,
    });
    setSaving(false);
    if (!result.ok && takenField(result.data.message) === 'email') {
      setErrors({ email: result.data.message });
      return focusFirstInvalid();
    }
    if (!result.ok) {
      toastFailure(FAILURE_TITLE.profileUpdate, result);
      return;
    }
    mergeUser(fields);
    // The form shows what was saved: trimmed, as a reload would show it.
    setForm(fields);
    setSaved(fields);
    retireFailure(FAILURE_TITLE.profileUpdate);
    toast.success('修改成功', '个人资料已保存');
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-labelledby="profile-title">
      <h2 id="profile-title" className="app-panel__title">
        基本资料
      </h2>
      <AvatarUpload />
      <div className="app-profile__grid">
        <TextField
          id="username"
          label="用户名"
          value={user.username ?? ''}
          onChange={() => undefined}
          disabled
          hint="用户名注册后不能修改"
        />
        <TextField
          id="realname"
          label="真实姓名"
          value={form.realname}
          onChange={set('realname')}
          error={errors.realname}
          autoComplete="name"
        />
        <EmailField value={form.email} onChange={set('email')} error={errors.email} />
        <TextField
          id="identity"
          label="身份"
          value={form.identity}
          onChange={set('identity')}
          error={errors.identity}
          placeholder="如：教师、学生"
        />
        <TextField
          id="address"
          label="地址"
          value={form.address}
          onChange={set('address')}
          error={errors.address}
          autoComplete="street-address"
        />
      </div>
      <TextField
        id="signature"
        label="个性签名"
        value={form.signature}
        onChange={set('signature')}
        error={errors.signature}
        maxLength={255}
      />
      <div className="app-form-actions">
        <Button htmlType="submit" theme="solid" loading={saving}>
          保存资料
        </Button>
      </div>
      <LeaveGuard when={edited && !saving} question="个人资料还没有保存，离开后修改的内容会丢失。确定离开吗？" />
    </form>
  );
}
