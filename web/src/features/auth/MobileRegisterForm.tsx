// Registration with a mobile number: the number, the code sent to it, a password, and a
// username if the member wants one (else the backend makes one up; they sign in by number).
import type { FormEvent } from 'react';
import { useFormValues } from '../../kit/forms/use-form-values';
import { FAILURE_TITLE } from '../../kit/toasts/failure-toast';
import { userApi } from '../user/api';
import { checkConfirmation, checkPassword, checkUsername, smsCodeField, takenField } from '../user/validation';
import { useSignInForm } from './sign-in';
import { MobileCodeFields, mobileCodeProblems, mobileCodeRequest, useSmsCaptcha } from './SmsCode';
import { AuthSubmitButton, NewPasswordFields, NewUsernameField } from './AuthFields';

type Field = 'mobile' | 'captcha' | 'code' | 'username' | 'password' | 'confirmation';

export function MobileRegisterForm({ target }: { target: string }) {
  const smsCaptcha = useSmsCaptcha();
  const { form, set } = useFormValues({ mobile: '', code: '', username: '', password: '', confirmation: '' });
  const { errors, setErrors, submitting, submit: signIn, formRef } = useSignInForm<Field>(target);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await signIn(
      {
        ...mobileCodeProblems(form),
        username: form.username.trim() ? checkUsername(form.username) : undefined,
        password: checkPassword(form.password),
        confirmation: checkConfirmation(form.password, form.confirmation),
      },
      () =>
        userApi.registerByMobile({
          ...mobileCodeRequest(form),
          password: form.password,
          ...(form.username.trim() ? { username: form.username.trim() } : {}),
        }),
      { failure: FAILURE_TITLE.register, success: '注册成功', welcome: '欢迎加入' },
      (message) => smsCodeField(message) ?? (takenField(message) === 'username' ? 'username' : undefined),
    );
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
      <MobileCodeFields
        type="register"
        form={form}
        set={set}
        errors={errors}
        setErrors={setErrors}
        smsCaptcha={smsCaptcha}
      />
      <NewPasswordFields label="密码" form={form} set={set} errors={errors} />
      <NewUsernameField
        label="用户名（选填）"
        hint="不填则自动生成，可用手机号登录"
        value={form.username}
        onChange={set('username')}
        error={errors.username}
      />
      <AuthSubmitButton submitting={submitting}>注册</AuthSubmitButton>
    </form>
  );
}
