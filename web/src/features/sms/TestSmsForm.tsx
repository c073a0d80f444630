// The test button of /admin/config/sms: one message, with the saved settings, to a number the
// admin chooses; a failure names the provider's reason. Only for an admin who holds 发送测试短信.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { normalizeMainlandMobile } from '../../../../shared/validation';
import { unwrap } from '../../api/client';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { TextField } from '../../ui/FormField';
import { Panel } from '../../ui/Panel';
import { Button } from '../../ui/semi';
import { checkMobile } from '../user/validation';
import { sendTestSms } from './api';
import './sms.css';

const SEND_TEST_SMS = grpcPermissionPath('ConfigAPI', 'SendTestSms');

export function TestSmsForm() {
  const mayTest = useMayCall()(SEND_TEST_SMS);
  const [mobile, setMobile] = useState('');
  const [error, setError] = useState<string | undefined>();
  const send = useMutation({
    mutationFn: async (number: string, context) => unwrap(await sendTestSms(number, context)),
    onSuccess: () =>
      toast.success('测试短信已发送', '请检查手机是否收到（“仅记录”服务商不会真正发送，请查看短信管理的记录）'),
    onError: (failure) => toastFailure('测试短信发送失败', failure),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkMobile(mobile, true);
    setError(problem);
    if (!problem) send.mutate(normalizeMainlandMobile(mobile) ?? mobile.trim());
  };

  if (!mayTest) return null;
  return (
    <Panel titleId="sms-test" title="发送测试短信">
      <p className="app-field__hint">使用已保存的配置和登录验证码模板发送一条测试短信；修改配置后请先保存。</p>
      <form className="app-sms-test" onSubmit={submit} noValidate>
        <TextField
          id="sms-test-mobile"
          label="接收手机号"
          type="tel"
          value={mobile}
          onChange={setMobile}
          error={error}
          placeholder="请输入中国大陆手机号"
          maxLength={20}
        />
        <Button htmlType="submit" theme="solid" loading={send.isPending}>
          发送测试短信
        </Button>
      </form>
    </Panel>
  );
}
