// Registration with a mobile number: the number, the code sent to it, a password, and a
// username if the member wants one (else the backend makes one up; they sign in by number).
import { useState, type FormEvent } from 'react';
import { normalizeMainlandMobile } from '../../../../shared/validation';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { FAILURE_TITLE } from '../../kit/toasts/failure-toast';
import { TextField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { userApi } from '../user/api';
import { checkConfirmation, checkMobile, checkPassword, checkSmsCode, checkUsername } from '../user/validation';
import { useFinishSignIn } from './sign-in';
import { SmsCodeFields, useSmsCaptcha } from './SmsCode';

type Field = 'mobile' | 'captcha' | 'code' | 'username' | 'password' | 'confirmation';

export function MobileRegisterForm({ target }: { target: string }) {
  const smsCaptcha = useSmsCaptcha();
  const { finish: finishSignIn, retractFailure } = useFinishSignIn(target);
  const [form, setForm] = useState({ mobile: '', code: '', username: '', password: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [submitting, setSubmitting] = useState(false);
  const set = (field: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    retractFailure();
    const invalid = collectErrors<Field>({
      mobile: checkMobile(form.mobile, true),
      captcha: undefined,
      code: checkSmsCode(form.code),
      username: form.username.trim() ? checkUsername(form.username) : undefined,
      password: checkPassword(form.password),
      confirmation: checkConfirmation(form.password, form.confirmation),
    });
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    const result = await userApi.registerByMobile({
      mobile: normalizeMainlandMobile(form.mobile) ?? form.mobile.trim(),
      code: form.code.trim(),
      password: form.password,
      ...(form.username.trim() ? { username: form.username.trim() } : {}),
    });
    if (await finishSignIn(result, { failure: FAILURE_TITLE.register, success: '注册成功', welcome: '欢迎加入' }))
      return;
    setSubmitting(false);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        id="mobile"
        label="手机号"
        type="tel"
        value={form.mobile}
        onChange={set('mobile')}
        error={errors.mobile}
        placeholder="请输入中国大陆手机号"
        autoComplete="tel"
        maxLength={20}
      />
      <SmsCodeFields
        type="register"
        mobile={form.mobile}
        mobileProblem={() => checkMobile(form.mobile, true)}
        code={form.code}
        onCodeChange={set('code')}
        errors={errors}
        setErrors={setErrors}
        smsCaptcha={smsCaptcha}
      />
      <TextField
        id="password"
        label="密码"
        type="password"
        value={form.password}
        onChange={set('password')}
        error={errors.password}
        placeholder="至少 6 位"
        autoComplete="new-password"
      />
      <TextField
        id="confirmation"
        label="确认密码"
        type="password"
        value={form.confirmation}
        onChange={set('confirmation')}
        error={errors.confirmation}
        placeholder="再次输入密码"
        autoComplete="new-password"
      />
      <TextField
        id="username"
        label="用户名（选填）"
        value={form.username}
        onChange={set('username')}
        error={errors.username}
        placeholder="3-32 个字符，不能是邮箱或手机号"
        autoComplete="username"
        maxLength={32}
        hint="不填则自动生成，可用手机号登录"
      />
      <Button htmlType="submit" theme="solid" size="large" block loading={submitting}>
        注册
      </Button>
    </form>
  );
}
