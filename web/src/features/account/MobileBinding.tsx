// The member's mobile number: shown masked, and bound or changed only with the code sent
// to the new number (BindMobile). The profile form sends the number unchanged. A refusal of
// the code or of the number is said under that field, with the keyboard there (docs/product.md §8).
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { maskMobile, normalizeMainlandMobile } from '../../../../shared/validation';
import { unwrap } from '../../api/client';
import { collectErrors, type Errors } from '../../kit/forms/checks';
import { failureMessage, toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { SmsCodeFields, useSmsCaptcha, useSmsEnabled } from '../auth/SmsCode';
import { mergeUser } from '../session/session-store';
import { bindMobile } from '../user/api';
import { boundMobileField, checkMobile, checkSmsCode, smsCodeField } from '../user/validation';
import { MobileField } from '../auth/AuthFields';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';

type Field = 'mobile' | 'captcha' | 'code';

function BindMobileForm({ current, onDone }: { current: string; onDone: () => void }) {
  const smsCaptcha = useSmsCaptcha();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors<Field>>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const bind = useMutation({
    mutationFn: async (input: { mobile: string; code: string }, context) => unwrap(await bindMobile(input, context)),
    onSuccess: (_data, input) => {
      mergeUser({ mobile: input.mobile });
      toast.success(current ? '更换成功' : '绑定成功', `手机号已绑定为 ${maskMobile(input.mobile)}`);
      onDone();
    },
    onError: (error) => {
      const message = failureMessage(error) ?? '';
      const field = smsCodeField(message) ?? boundMobileField(message);
      if (!field) {
        toastFailure(current ? '更换手机号失败' : '绑定手机号失败', error);
        return;
      }
      setErrors({ [field]: message });
      focusFirstInvalid();
    },
  });

  const checkNumber = () => {
    const problem = checkMobile(mobile, true);
    return problem ?? (normalizeMainlandMobile(mobile) === current ? '新手机号与当前绑定的手机号相同' : undefined);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = collectErrors<Field>({ mobile: checkNumber(), captcha: undefined, code: checkSmsCode(code) });
    setErrors(invalid ?? {});
    if (invalid) return focusFirstInvalid();
    bind.mutate({ mobile: normalizeMainlandMobile(mobile) ?? mobile.trim(), code: code.trim() });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <MobileField
        id="bind-mobile"
        label={current ? '新手机号' : '手机号'}
        value={mobile}
        onChange={setMobile}
        error={errors.mobile}
      />
      <SmsCodeFields
        id="bind-code"
        type="bind"
        mobile={mobile}
        mobileProblem={checkNumber}
        code={code}
        onCodeChange={setCode}
        errors={errors}
        setErrors={setErrors}
        smsCaptcha={smsCaptcha}
      />
      <div className="app-form-actions">
        <Button htmlType="submit" theme="solid" loading={bind.isPending}>
          {current ? '确认更换' : '确认绑定'}
        </Button>
        <Button onClick={onDone} disabled={bind.isPending}>
          取消
        </Button>
      </div>
    </form>
  );
}

/** The panel of `/member/profile` about the member's number; `mobile` is the bound one ('' for none). */
export function MobileBinding({ mobile }: { mobile: string }) {
  const smsEnabled = useSmsEnabled();
  const [editing, setEditing] = useState(false);
  return (
    <section className="app-panel" aria-labelledby="mobile-title">
      <h2 id="mobile-title" className="app-panel__title">
        手机号
      </h2>
      <p className="app-mobile-binding__status">
        {mobile ? `已绑定 ${maskMobile(mobile)}，可用手机号和短信验证码登录、找回密码。` : '尚未绑定手机号。'}
      </p>
      {!smsEnabled ? (
        <p className="app-field__hint">本站暂未开通短信服务，暂不能{mobile ? '更换' : '绑定'}手机号。</p>
      ) : editing ? (
        <BindMobileForm current={mobile} onDone={() => setEditing(false)} />
      ) : (
        <Button onClick={() => setEditing(true)}>{mobile ? '更换手机号' : '绑定手机号'}</Button>
      )}
    </section>
  );
}
