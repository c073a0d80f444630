// Login with a mobile number and the code sent to it by SMS. Where registration is open, a
// number without an account gets one as it signs in (the form says so); where it is closed,
// the server refuses such a number before texting it.
import type { FormEvent } from 'react';
import { useFormValues } from '../../kit/forms/use-form-values';
import { FAILURE_TITLE } from '../../kit/toasts/failure-toast';
import { useSettings } from '../settings/use-settings';
import { userApi } from '../user/api';
import { smsCodeField } from '../user/validation';
import { useSignInForm } from './sign-in';
import { MobileCodeFields, mobileCodeProblems, mobileCodeRequest, useSmsCaptcha } from './SmsCode';
import { AgreementNote } from './AgreementNote';
import { AuthSubmitButton } from './AuthFields';

type Field = 'mobile' | 'captcha' | 'code';

export function MobileLoginForm({ target }: { target: string }) {
  const settings = useSettings();
  const registrationOpen = settings.security?.enable_register === true && !settings.security.is_close;
  const smsCaptcha = useSmsCaptcha();
  const { form, set } = useFormValues({ mobile: '', code: '' });
  const { errors, setErrors, submitting, submit: signIn, formRef } = useSignInForm<Field>(target);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await signIn(
      mobileCodeProblems(form),
      () => userApi.loginByMobile(mobileCodeRequest(form)),
      (result) =>
        result.ok && result.data.registered === true
          ? { failure: FAILURE_TITLE.login, success: '注册成功', welcome: '已为您的手机号创建账号' }
          : { failure: FAILURE_TITLE.login, success: '登录成功', welcome: '欢迎回来' },
      smsCodeField,
    );
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
      {registrationOpen && <p className="app-auth-note">验证码登录，未注册手机号将自动注册</p>}
      <MobileCodeFields
        type="login"
        form={form}
        set={set}
        errors={errors}
        setErrors={setErrors}
        smsCaptcha={smsCaptcha}
      />
      <AuthSubmitButton submitting={submitting}>登录</AuthSubmitButton>
      {/* A new number is signed up here as on the registration screen. */}
      {registrationOpen && <AgreementNote />}
    </form>
  );
}
