import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AliyunSmsProvider } from '../../backend/platform/sms/aliyun';
import { TencentSmsProvider } from '../../backend/platform/sms/tencent';
import { SmsProviderError } from '../../backend/platform/sms/sms-provider';
import { api, login, setConfig, startBackend, withDatabase, type StartedBackend } from '../helpers/backend';
import { ageSmsLog } from '../helpers/sms';
import { STUB_ACCOUNTS, startSmsProvider, type Cloud, type SmsProviderStub } from '../helpers/sms-provider';

// The Alibaba Cloud and Tencent Cloud adapters against a local stub that checks each request's
// signature as the clouds compute it (tests/helpers/sms-provider.ts), through the real
// backend (SendSmsCode, the sign-in flows, SendTestSms) and directly.

let stub: SmsProviderStub;
const backends: Partial<Record<Cloud, StartedBackend & { adminToken: string }>> = {};

beforeAll(async () => {
  stub = await startSmsProvider();
  for (const cloud of ['aliyun', 'tencent'] as const) {
    const started = await startBackend({ env: { ...stub.env, ...stub.settingsEnv(cloud) } });
    backends[cloud] = { ...started, adminToken: await login(started.url, 'admin', started.adminPassword) };
  }
});
afterAll(async () => {
  for (const backend of Object.values(backends)) await backend?.close();
  await stub?.close();
});
afterEach(() => {
  stub.fault = null;
});

let numberSeq = 0;
const newMobile = () => `137${String(process.pid % 1000).padStart(3, '0')}${String(++numberSeq).padStart(5, '0')}`;
const backendOf = (cloud: Cloud) => backends[cloud]!;

function sendCode(cloud: Cloud, mobile: string, type: string) {
  return api(backendOf(cloud).url, 'POST', '/api/v1/user/sms/code', { body: { mobile, type } });
}

const lastLog = (cloud: Cloud, mobile: string) =>
  withDatabase(backendOf(cloud).dataDir, (db) =>
    db.selectFrom('sms_log').selectAll().where('mobile', '=', mobile).orderBy('id', 'desc').limit(1).executeTakeFirst(),
  );

const EXPECTED = {
  aliyun: { phone: (m: string) => m, login: 'SMS_400000001', register: 'SMS_400000002' },
  tencent: { phone: (m: string) => `+86${m}`, login: '1900001', register: '1900002' },
} as const;

describe.each(['aliyun', 'tencent'] as const)('%s', (cloud) => {
  it("sends the code with the sign name and the purpose's template, signed so that the cloud accepts it", async () => {
    const mobile = newMobile();
    const res = await sendCode(cloud, mobile, 'register');
    expect(res.status, res.text).toBe(200);
    const sent = stub.sent.at(-1)!;
    expect(sent).toMatchObject({
      cloud,
      phone: EXPECTED[cloud].phone(mobile),
      signName: '魔豆文库',
      template: EXPECTED[cloud].register,
    });
    expect(sent.params).toEqual([expect.stringMatching(/^\d{6}$/)]);
    expect(res.text).not.toContain(sent.params[0]);
    expect(await lastLog(cloud, mobile)).toMatchObject({
      provider: cloud,
      purpose: 'register',
      status: 1,
      error: '',
      content: '',
      biz_id: expect.stringMatching(/.+/),
    });
    expect(stub.refused.filter((r) => r.cloud === cloud)).toEqual([]);
  });

  it('registers and signs in with the codes the cloud delivered; purposes without a template use the login one', async () => {
    const mobile = newMobile();
    await sendCode(cloud, mobile, 'register');
    const registered = await api(backendOf(cloud).url, 'POST', '/api/v1/user/register/mobile', {
      body: { mobile, code: stub.sent.at(-1)!.params[0], password: 'cloud-secret' },
    });
    expect(registered.status, registered.text).toBe(200);
    await ageSmsLog(backendOf(cloud).dataDir, mobile, 61_000);
    expect((await sendCode(cloud, mobile, 'find_password')).status).toBe(200);
    expect(stub.sent.at(-1)!.template).toBe(EXPECTED[cloud].login);
    await ageSmsLog(backendOf(cloud).dataDir, mobile, 61_000);
    await sendCode(cloud, mobile, 'login');
    const loggedIn = await api(backendOf(cloud).url, 'POST', '/api/v1/user/login/mobile', {
      body: { mobile, code: stub.sent.at(-1)!.params[0] },
    });
    expect(loggedIn.status, loggedIn.text).toBe(200);
    expect(loggedIn.body.user.id).toBe(registered.body.user.id);
  });

  it("sends the config page's test message through the cloud", async () => {
    const mobile = newMobile();
    const res = await api(backendOf(cloud).url, 'POST', '/api/v1/config/sms/test', {
      token: backendOf(cloud).adminToken,
      body: { mobile },
    });
    expect(res.status, res.text).toBe(200);
    expect(stub.sent.at(-1)).toMatchObject({
      cloud,
      phone: EXPECTED[cloud].phone(mobile),
      template: EXPECTED[cloud].login,
    });
    expect(await lastLog(cloud, mobile)).toMatchObject({ purpose: 'test', status: 1 });
  });

  it("records the cloud's refusal; members read a plain message, the test button the reason", async () => {
    const { url, adminToken } = backendOf(cloud);
    await setConfig(url, adminToken, { 'sms.access_key_secret': 'not-the-secret' });
    try {
      const mobile = newMobile();
      const res = await sendCode(cloud, mobile, 'login');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 14, message: '短信发送失败，请稍后再试' });
      const reason = cloud === 'aliyun' ? 'SignatureDoesNotMatch' : 'AuthFailure.SignatureFailure';
      expect(await lastLog(cloud, mobile)).toMatchObject({ status: 2, error: `${reason}: stub: ${reason}` });
      const test = await api(url, 'POST', '/api/v1/config/sms/test', {
        token: adminToken,
        body: { mobile: newMobile() },
      });
      expect(test.status).toBe(502);
      expect(test.body.message).toBe(`短信发送失败：${reason}: stub: ${reason}`);
    } finally {
      await setConfig(url, adminToken, {
        'sms.access_key_secret':
          cloud === 'aliyun' ? STUB_ACCOUNTS.aliyun.accessKeySecret : STUB_ACCOUNTS.tencent.secretKey,
      });
    }
  });

  it.each([
    ['limit', 429, 8, '该手机号获取验证码过于频繁，请稍后再试'],
    ['refuse', 502, 14, '短信发送失败，请稍后再试'],
    ['http-500', 502, 14, '短信发送失败，请稍后再试'],
    ['hang', 504, 4, '短信服务响应超时，请稍后再试'],
  ] as const)('answers the cloud fault %s with %i', async (fault, status, code, message) => {
    stub.fault = fault;
    const mobile = newMobile();
    const res = await sendCode(cloud, mobile, 'login');
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, message });
    expect(await lastLog(cloud, mobile)).toMatchObject({ status: 2, error: expect.stringMatching(/.+/) });
  });
});

describe('the stub checks signatures as the clouds do', () => {
  it('refuses an Alibaba request whose parameters were changed after signing, and a replayed one', async () => {
    await sendCode('aliyun', newMobile(), 'login');
    const raw = stub.sent.at(-1)!.raw;
    const tampered = await stub.replay({
      ...raw,
      url: raw.url.replace(/PhoneNumbers=\d+/, 'PhoneNumbers=13900000000'),
    });
    expect(tampered).toMatchObject({ status: 400, body: { Code: 'SignatureDoesNotMatch' } });
    const replayed = await stub.replay(raw);
    expect(replayed).toMatchObject({ status: 400, body: { Code: 'SignatureNonceUsed' } });
  });

  it('refuses a Tencent request whose body was changed after signing', async () => {
    await sendCode('tencent', newMobile(), 'login');
    const raw = stub.sent.at(-1)!.raw;
    const tampered = await stub.replay({
      ...raw,
      body: raw.body.replace(/"TemplateParamSet":\["\d{6}"\]/, '"TemplateParamSet":["000000"]'),
    });
    expect(tampered.body).toMatchObject({ Response: { Error: { Code: 'AuthFailure.SignatureFailure' } } });
  });

  it('accepts sign names and template values that need percent-encoding (spaces, *, ~, Chinese, emoji)', async () => {
    const account = {
      signName: '魔豆 文库*~(测试)😀',
      accessKeyId: STUB_ACCOUNTS.aliyun.accessKeyId,
      accessKeySecret: STUB_ACCOUNTS.aliyun.accessKeySecret,
      sdkAppId: '',
      region: '',
    };
    const signal = AbortSignal.timeout(2000);
    const message = { mobile: '13812345678', templateId: 'SMS_1-a_b', code: '012345', text: '' };
    expect((await new AliyunSmsProvider(account, stub.url).send(message, signal)).bizId).not.toBe('');
    expect(stub.sent.at(-1)).toMatchObject({
      cloud: 'aliyun',
      signName: account.signName,
      template: 'SMS_1-a_b',
      params: ['012345'],
    });
    const tencent = {
      ...account,
      accessKeyId: STUB_ACCOUNTS.tencent.secretId,
      accessKeySecret: STUB_ACCOUNTS.tencent.secretKey,
      sdkAppId: '1400123456',
      region: 'ap-beijing',
    };
    expect((await new TencentSmsProvider(tencent, stub.url).send(message, signal)).bizId).toMatch(/^2640:/);
    expect(stub.sent.at(-1)).toMatchObject({ cloud: 'tencent', signName: account.signName, phone: '+8613812345678' });
    expect(JSON.parse(stub.sent.at(-1)!.raw.body)).toMatchObject({
      SmsSdkAppId: '1400123456',
      TemplateId: 'SMS_1-a_b',
      TemplateParamSet: ['012345'],
    });
    expect(stub.sent.at(-1)!.raw.headers['x-tc-region']).toBe('ap-beijing');
  });

  it('reports an unreachable endpoint as such', async () => {
    const closed = await startSmsProvider();
    const url = closed.url;
    await closed.close();
    const account = {
      signName: '魔豆文库',
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      sdkAppId: '1',
      region: 'ap-guangzhou',
    };
    const message = { mobile: '13812345678', templateId: 'SMS_1', code: '123456', text: '' };
    for (const provider of [new AliyunSmsProvider(account, url), new TencentSmsProvider(account, url)]) {
      const error = await provider.send(message, AbortSignal.timeout(2000)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SmsProviderError);
      expect((error as SmsProviderError).failure).toBe('unreachable');
    }
  });
});
