// Find-password by phone: the number, the code sent to it, and the new password.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { useFormValues } from '../../kit/forms/use-form-values';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { userApi } from '../user/api';
import { checkConfirmation, checkPassword, smsCodeField } from '../user/validation';
import { MobileCodeFields, mobileCodeProblems, mobileCodeRequest, useSmsCaptcha } from './SmsCode';
import { AuthSubmitButton, NewPasswordFields } from './AuthFields';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';

type Field = 'mobile' | 'captcha' | 'code' | 'password' | 'confirmation';

/** `target`: where the login after the reset goes on to. */
export function MobileResetForm({ target }: { target: string }) {
  const navigate = useNavigate();
  const smsCaptcha = useSmsCaptcha();
  const { form, set } = useFormValues({ mobile: '', code: '', password: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<Field>({
      ...mobileCodeProblems(form),
      password: checkPassword(form.password, '新密码'),
      confirmation: checkConfirmation(form.password, form.confirmation),
    });
    setErrors(invalid ?? {});
    if (invalid) return focusFirstInvalid();
    setSubmitting(true);
    const result = await userApi.findPasswordByMobile({
      ...mobileCodeRequest(form),
      password: form.password,
    });
    setSubmitting(false);
    if (!result.ok && smsCodeField(result.data.message)) {
      setErrors({ code: result.data.message });
      return focusFirstInvalid();
    }
    if (!result.ok) {
      toastFailure('重置密码失败', result);
      return;
    }
    toast.success('密码已重置', '请使用新密码登录');
    await navigate(loginLocation(target), { replace: true });
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
      <p className="app-state__description">输入绑定的手机号，用短信验证码设置新密码。</p>
      <MobileCodeFields
        type="find_password"
        form={form}
        set={set}
        errors={errors}
        setErrors={setErrors}
        smsCaptcha={smsCaptcha}
        placeholder="请输入绑定的手机号"
      />
      <NewPasswordFields label="新密码" form={form} set={set} errors={errors} />
      <AuthSubmitButton submitting={submitting}>重置密码</AuthSubmitButton>
    </form>
  );
}
