import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { User } from '../../../shared/types/user';
import { errorMessage } from '../api/client';
import { userApi } from '../features/user/api';
import { uploadAvatar } from '../features/upload/api';
import { checkConfirmation, checkEmail, checkMobile, checkPassword } from '../features/user/validation';
import { checkMaxLength, collectErrors, type Errors } from '../kit/forms/checks';
import { useImageUpload } from '../kit/image-upload/use-image-upload';
import { currentUserQuery } from '../features/session/session-actions';
import { mergeUser } from '../features/session/session-store';
import { UserAvatar } from '../features/session/UserMenu';
import { useSession } from '../features/session/use-session';
import { FAILURE_TITLE, toastFailure } from '../kit/toasts/failure-toast';
import { toast } from '../kit/toasts/toast-store';
import { TextField } from '../ui/FormField';
import { Button, Skeleton } from '../ui/semi';
import { ErrorState } from '../ui/states';
import './member.css';

const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp'];
const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Why an avatar file is refused before upload, or undefined. */
export function checkAvatarFile(file: Pick<File, 'type' | 'size'>): string | undefined {
  if (!AVATAR_TYPES.includes(file.type)) return '请上传 JPG、PNG、GIF、WEBP 或 BMP 格式的图片';
  if (file.size > AVATAR_MAX_BYTES) return '头像图片不能超过 5 MB';
  return undefined;
}

function AvatarUpload() {
  const { uploading, choose, fileInput } = useImageUpload({
    check: checkAvatarFile,
    upload: uploadAvatar,
    failureTitle: '头像上传失败',
    onUploaded: (path) => {
      mergeUser({ avatar: path });
      toast.success('头像已更新');
    },
  });

  return (
    <div className="app-profile__avatar">
      <UserAvatar size="large" />
      <input {...fileInput} accept={AVATAR_TYPES.join(',')} aria-label="选择头像图片" />
      <Button loading={uploading} onClick={choose}>
        更换头像
      </Button>
      <span className="app-field__hint">支持 JPG、PNG、GIF、WEBP，不超过 5 MB</span>
    </div>
  );
}

type ProfileField = 'realname' | 'email' | 'mobile' | 'identity' | 'address' | 'signature';
const PROFILE_FIELDS: readonly ProfileField[] = ['realname', 'email', 'mobile', 'identity', 'address', 'signature'];

function profileOf(user: User | null): Record<ProfileField, string> {
  return Object.fromEntries(PROFILE_FIELDS.map((f) => [f, user?.[f] ?? ''])) as Record<ProfileField, string>;
}

function ProfileForm({ user }: { user: User }) {
  const [form, setForm] = useState(() => profileOf(user));
  const [errors, setErrors] = useState<Errors<ProfileField>>({});
  const [saving, setSaving] = useState(false);
  const set = (field: ProfileField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<ProfileField>({
      realname: checkMaxLength(form.realname, 32, '真实姓名'),
      email: checkEmail(form.email, false),
      mobile: checkMobile(form.mobile),
      identity: checkMaxLength(form.identity, 32, '身份'),
      address: checkMaxLength(form.address, 128, '地址'),
      signature: checkMaxLength(form.signature, 255, '个性签名'),
    });
    setErrors(invalid ?? {});
    if (invalid || !user.id) return;
    const fields = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, form[f].trim()])) as Record<ProfileField, string>;
    setSaving(true);
    // The backend writes every profile column, so the current avatar is sent along.
    const result = await userApi.updateProfile({ id: user.id, avatar: user.avatar ?? '', ...fields });
    setSaving(false);
    if (!result.ok) {
      toastFailure(FAILURE_TITLE.profileUpdate, result);
      return;
    }
    mergeUser(fields);
    toast.success('修改成功', '个人资料已保存');
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="profile-title">
      <h2 id="profile-title" className="app-panel__title">
        基本资料
      </h2>
      <AvatarUpload />
      <div className="app-profile__grid">
        <TextField id="username" label="用户名" value={user.username ?? ''} onChange={() => undefined} disabled hint="用户名注册后不能修改" />
        <TextField id="realname" label="真实姓名" value={form.realname} onChange={set('realname')} error={errors.realname} autoComplete="name" />
        <TextField id="email" label="邮箱" type="email" value={form.email} onChange={set('email')} error={errors.email} autoComplete="email" />
        <TextField id="mobile" label="手机号码" type="tel" value={form.mobile} onChange={set('mobile')} error={errors.mobile} autoComplete="tel" />
        <TextField id="identity" label="身份" value={form.identity} onChange={set('identity')} error={errors.identity} placeholder="如：教师、学生" />
        <TextField id="address" label="地址" value={form.address} onChange={set('address')} error={errors.address} autoComplete="street-address" />
      </div>
      <TextField id="signature" label="个性签名" value={form.signature} onChange={set('signature')} error={errors.signature} maxLength={255} />
      <div className="app-form-actions">
        <Button htmlType="submit" theme="solid" loading={saving}>
          保存资料
        </Button>
      </div>
    </form>
  );
}

type PasswordField = 'old' | 'next' | 'confirmation';

function PasswordForm() {
  const [form, setForm] = useState<Record<PasswordField, string>>({ old: '', next: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors<PasswordField>>({});
  const [saving, setSaving] = useState(false);
  const set = (field: PasswordField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<PasswordField>({
      old: form.old ? undefined : '请输入原密码',
      next:
        checkPassword(form.next, '新密码') ?? (form.next === form.old ? '新密码不能与原密码相同' : undefined),
      confirmation: checkConfirmation(form.next, form.confirmation),
    });
    setErrors(invalid ?? {});
    if (invalid) return;
    setSaving(true);
    const result = await userApi.updatePassword({ old_password: form.old, new_password: form.next });
    setSaving(false);
    if (!result.ok) {
      toastFailure(FAILURE_TITLE.profileUpdate, result);
      return;
    }
    setForm({ old: '', next: '', confirmation: '' });
    toast.success('修改成功', '密码已修改，下次请使用新密码登录');
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="password-title">
      <h2 id="password-title" className="app-panel__title">
        修改密码
      </h2>
      <div className="app-profile__grid">
        <TextField id="old-password" label="原密码" type="password" value={form.old} onChange={set('old')} error={errors.old} autoComplete="current-password" />
        <TextField id="new-password" label="新密码" type="password" value={form.next} onChange={set('next')} error={errors.next} autoComplete="new-password" placeholder="至少 6 位" />
        <TextField id="confirm-password" label="确认新密码" type="password" value={form.confirmation} onChange={set('confirmation')} error={errors.confirmation} autoComplete="new-password" />
      </div>
      <div className="app-form-actions">
        <Button htmlType="submit" theme="solid" loading={saving}>
          修改密码
        </Button>
      </div>
    </form>
  );
}

/** `/member/profile`: profile, avatar and password. */
export function MemberProfilePage() {
  const current = useQuery(currentUserQuery());
  const { user } = useSession();
  if (current.isPending) {
    return (
      <section className="app-panel">
        <Skeleton.Paragraph rows={6} />
      </section>
    );
  }
  if (current.isError || !user) {
    return (
      <section className="app-panel">
        <ErrorState message={errorMessage(current.error, '账号信息加载失败')} onRetry={() => void current.refetch()} />
      </section>
    );
  }
  return (
    <>
      <section className="app-panel">
        <ProfileForm key={user.id} user={user} />
      </section>
      <section className="app-panel">
        <PasswordForm />
      </section>
    </>
  );
}
