// The two steps of find-password: the e-mail the reset link goes to, then the new password
// (from the link in the e-mail).
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { useFormValues } from '../../kit/forms/use-form-values';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { userApi } from '../user/api';
import { checkConfirmation, checkEmail, checkPassword } from '../user/validation';
import { CaptchaField, captchaFields, captchaProblem, type CaptchaState } from './CaptchaField';
import { AuthSubmitButton, EmailField, NewPasswordFields } from './AuthFields';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';

/** Step one: the e-mail address the reset link goes to (`initialEmail`: back from a spent link). */
export function RequestResetForm({ captcha, initialEmail = '' }: { captcha: CaptchaState; initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [captchaText, setCaptchaText] = useState('');
  const [errors, setErrors] = useState<Errors<'email' | 'captcha'>>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors({ email: checkEmail(email), captcha: captchaProblem(captcha, captchaText) });
    setErrors(invalid ?? {});
    if (invalid) return focusFirstInvalid();
    setSubmitting(true);
    const result = await userApi.findPasswordStepOne({
      email: email.trim(),
      ...captchaFields(captcha, captchaText),
    });
    setSubmitting(false);
    // A refused request and a mail sent both leave a captcha the server will not take again
    // (a mail sent spends it): 重新发送 asks a new one.
    if (captcha.required) {
      setCaptchaText('');
      captcha.refresh();
    }
    if (!result.ok) {
      toastFailure('发送失败', result);
      return;
    }
    setSentTo(email.trim());
    toast.success('邮件已发送', '请查收邮件，按邮件中的链接重置密码');
  };

  if (sentTo) {
    return (
      <div className="app-state" role="status">
        <p className="app-state__title">重置密码的邮件已发送至 {sentTo}</p>
        <p className="app-state__description">
          请在邮件有效期内点击邮件中的链接设置新密码。没有收到？请检查垃圾邮件箱。
        </p>
        <Button onClick={() => setSentTo(null)}>重新发送</Button>
      </div>
    );
  }

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
      <p className="app-state__description">输入注册时使用的邮箱，我们会发送一封重置密码的邮件。</p>
      <EmailField value={email} onChange={setEmail} error={errors.email} placeholder="请输入注册邮箱" />
      <CaptchaField captcha={captcha} value={captchaText} onChange={setCaptchaText} error={errors.captcha} />
      <AuthSubmitButton submitting={submitting}>发送重置邮件</AuthSubmitButton>
    </form>
  );
}

/** Step two, from the link in the e-mail (`?email=…&token=…`): the new password. */
export function ResetPasswordForm({ email, token, captcha }: { email: string; token: string; captcha: CaptchaState }) {
  const navigate = useNavigate();
  const { form, setForm, set } = useFormValues({ password: '', confirmation: '', captcha: '' });
  const [errors, setErrors] = useState<Errors<'password' | 'confirmation' | 'captcha'>>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors({
      password: checkPassword(form.password, '新密码'),
      confirmation: checkConfirmation(form.password, form.confirmation),
      captcha: captchaProblem(captcha, form.captcha),
    });
    setErrors(invalid ?? {});
    if (invalid) return focusFirstInvalid();
    setSubmitting(true);
    const result = await userApi.findPasswordStepTwo({
      email,
      token,
      password: form.password,
      ...captchaFields(captcha, form.captcha),
    });
    setSubmitting(false);
    if (!result.ok) {
      toastFailure('重置密码失败', result);
      if (captcha.required) {
        setForm((f) => ({ ...f, captcha: '' }));
        captcha.refresh();
      }
      return;
    }
    toast.success('密码已重置', '请使用新密码登录');
    await navigate('/auth/login', { replace: true });
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
      <p className="app-state__description">为 {email} 设置新密码。</p>
      <NewPasswordFields label="新密码" form={form} set={set} errors={errors} />
      <CaptchaField captcha={captcha} value={form.captcha} onChange={set('captcha')} error={errors.captcha} />
      <AuthSubmitButton submitting={submitting}>重置密码</AuthSubmitButton>
      {/* A link is spent once used and lapses after its time: step one again, with the address. */}
      <p className="app-auth-note app-auth-note--below">
        链接已失效？<Link to={`/auth/forgot?email=${encodeURIComponent(email)}`}>重新发送重置邮件</Link>
      </p>
    </form>
  );
}
