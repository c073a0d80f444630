// The fields every sign-in, registration and account form asks the same way: a mobile number,
// an e-mail address, a new password with its confirmation, and the form's large submit button.
import type { ReactNode } from 'react';
import type { Errors } from '../../kit/forms/checks';
import { TextField } from '../../ui/FormField';
import { Button } from '../../ui/semi';

/** A mainland mobile number (the SMS code fields follow it). */
export function MobileField({
  id = 'mobile',
  label = '手机号',
  placeholder = '请输入中国大陆手机号',
  value,
  onChange,
  error,
}: {
  id?: string;
  label?: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <TextField
      id={id}
      label={label}
      type="tel"
      value={value}
      onChange={onChange}
      error={error}
      placeholder={placeholder}
      autoComplete="tel"
      maxLength={20}
    />
  );
}

/** The username a new member chooses (`hint` where it may be left empty). */
export function NewUsernameField({
  label = '用户名',
  hint,
  value,
  onChange,
  error,
}: {
  label?: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <TextField
      id="username"
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      placeholder="3-32 个字符，不能是邮箱或手机号"
      autoComplete="username"
      maxLength={32}
      hint={hint}
    />
  );
}

/** An e-mail address. */
export function EmailField({
  value,
  onChange,
  error,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
}) {
  return (
    <TextField
      id="email"
      label="邮箱"
      type="email"
      value={value}
      onChange={onChange}
      error={error}
      placeholder={placeholder}
      autoComplete="email"
    />
  );
}

/** A password being set (`label` 密码 or 新密码) and the same typed again, from the form's values. */
export function NewPasswordFields({
  label,
  form,
  set,
  errors,
}: {
  label: '密码' | '新密码';
  form: { password: string; confirmation: string };
  set: (field: 'password' | 'confirmation') => (value: string) => void;
  errors: Errors<'password' | 'confirmation'>;
}) {
  return (
    <>
      <TextField
        id="password"
        label={label}
        type="password"
        value={form.password}
        onChange={set('password')}
        error={errors.password}
        placeholder="至少 6 位"
        autoComplete="new-password"
      />
      <TextField
        id="confirmation"
        label={`确认${label}`}
        type="password"
        value={form.confirmation}
        onChange={set('confirmation')}
        error={errors.confirmation}
        placeholder={`再次输入${label}`}
        autoComplete="new-password"
      />
    </>
  );
}

/** The full-width submit button of a sign-in or registration form. */
export function AuthSubmitButton({ submitting, children }: { submitting: boolean; children: ReactNode }) {
  return (
    <Button htmlType="submit" theme="solid" size="large" block loading={submitting}>
      {children}
    </Button>
  );
}
