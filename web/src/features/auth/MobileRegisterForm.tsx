// Registration with a mobile number: the number, the code sent to it, a password, and a
// username if the member wants one (else the backend makes one up; they sign in by number).
import { useState, type FormEvent } from 'react';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { useFormValues } from '../../kit/forms/use-form-values';
import { FAILURE_TITLE } from '../../kit/toasts/failure-toast';
import { userApi } from '../user/api';
import { checkConfirmation, checkPassword, checkUsername } from '../user/validation';
import { useFinishSignIn } from './sign-in';
import { MobileCodeFields, mobileCodeProblems, mobileCodeRequest, useSmsCaptcha } from './SmsCode';
import { AuthSubmitButton, NewPasswordFields, NewUsernameField } from './AuthFields';

type Field = 'mobile' | 'captcha' | 'code' | 'username' | 'password' | 'confirmation';

export function MobileRegisterForm({ target }: { target: string }) {
  const smsCaptcha = useSmsCaptcha();
  const { finish: finishSignIn, retractFailure } = useFinishSignIn(target);
  const { form, set } = useFormValues({ mobile: '', code: '', username: '', password: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    retractFailure();
    const invalid = collectErrors<Field>({
      ...mobileCodeProblems(form),
      username: form.username.trim() ? checkUsername(form.username) : undefined,
      password: checkPassword(form.password),
      confirmation: checkConfirmation(form.password, form.confirmation),
    });
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    const result = await userApi.registerByMobile({
      ...mobileCodeRequest(form),
      password: form.password,
      ...(form.username.trim() ? { username: form.username.trim() } : {}),
    });
    if (await finishSignIn(result, { failure: FAILURE_TITLE.register, success: '注册成功', welcome: '欢迎加入' }))
      return;
    setSubmitting(false);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
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
