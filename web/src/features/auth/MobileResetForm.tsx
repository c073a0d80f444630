// Find-password by phone: the number, the code sent to it, and the new password.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { normalizeMainlandMobile } from '../../../../shared/validation';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { TextField } from '../../ui/FormField';
import { Button } from '../../ui/semi';
import { userApi } from '../user/api';
import { checkConfirmation, checkMobile, checkPassword, checkSmsCode } from '../user/validation';
import { SmsCodeFields, useSmsCaptcha } from './SmsCode';

type Field = 'mobile' | 'captcha' | 'code' | 'password' | 'confirmation';

export function MobileResetForm() {
  const navigate = useNavigate();
  const smsCaptcha = useSmsCaptcha();
  const [form, setForm] = useState({ mobile: '', code: '', password: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [submitting, setSubmitting] = useState(false);
  const set = (field: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<Field>({
      mobile: checkMobile(form.mobile, true),
      captcha: undefined,
      code: checkSmsCode(form.code),
      password: checkPassword(form.password, '新密码'),
      confirmation: checkConfirmation(form.password, form.confirmation),
    });
    setErrors(invalid ?? {});
    if (invalid) return;
    setSubmitting(true);
    const result = await userApi.findPasswordByMobile({
      mobile: normalizeMainlandMobile(form.mobile) ?? form.mobile.trim(),
      code: form.code.trim(),
      password: form.password,
    });
    setSubmitting(false);
    if (!result.ok) {
      toastFailure('重置密码失败', result);
      return;
    }
    toast.success('密码已重置', '请使用新密码登录');
    await navigate('/auth/login', { replace: true });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <p className="app-state__description">输入绑定的手机号，用短信验证码设置新密码。</p>
      <TextField
        id="mobile"
        label="手机号"
        type="tel"
        value={form.mobile}
        onChange={set('mobile')}
        error={errors.mobile}
        placeholder="请输入绑定的手机号"
        autoComplete="tel"
        maxLength={20}
      />
      <SmsCodeFields
        type="find_password"
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
        label="新密码"
        type="password"
        value={form.password}
        onChange={set('password')}
        error={errors.password}
        placeholder="至少 6 位"
        autoComplete="new-password"
      />
      <TextField
        id="confirmation"
        label="确认新密码"
        type="password"
        value={form.confirmation}
        onChange={set('confirmation')}
        error={errors.confirmation}
        placeholder="再次输入新密码"
        autoComplete="new-password"
      />
      <Button htmlType="submit" theme="solid" size="large" block loading={submitting}>
        重置密码
      </Button>
    </form>
  );
}
