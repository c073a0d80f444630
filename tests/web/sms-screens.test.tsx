// The screens of SMS codes (docs/api.md §6) inside the real route tree with a scripted
// backend: login, registration and password reset by code, the member's number, and the
// admin's SMS log, counters and test message.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Permission } from '../../shared/types/permission';
import type { StartData } from '../../shared/types/start-data';
import { clearSession, session } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { admin, member, renderApp, settings } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const smsSettings: StartData['settings'] = { ...settings, sms: { enable: true } };
const permissionOk = { status: 200, body: { permission: [] } };

type FetchMock = ReturnType<typeof renderApp>['fetchMock'];
const calls = (fetchMock: FetchMock, method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (init?.method ?? 'GET') === method && new URL(String(url), 'http://localhost').pathname === path,
  );
const bodyOf = (fetchMock: FetchMock, method: string, path: string, index = 0) =>
  JSON.parse(String(calls(fetchMock, method, path)[index]?.[1]?.body)) as Record<string, unknown>;
const queryOf = (fetchMock: FetchMock, path: string, index = 0) =>
  new URL(String(calls(fetchMock, 'GET', path)[index]?.[0]), 'http://localhost').searchParams;

describe('login by SMS code', () => {
  it('offers no tabs while the site sends no SMS', async () => {
    renderApp('/auth/login');
    expect(await screen.findByRole('heading', { name: '登录' })).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.getByLabelText('用户名').getAttribute('placeholder')).toBe('用户名、邮箱或手机号');
  });

  it('checks the number before sending a code, sends it normalised and counts down', async () => {
    const { fetchMock } = renderApp('/auth/login', {
      settings: smsSettings,
      backend: { 'POST /api/v1/user/sms/code': { status: 200, body: { interval: 60 } } },
    });
    await userEvent.click(await screen.findByRole('tab', { name: '短信登录' }));
    expect(screen.getByRole('tab', { name: '短信登录' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(screen.getByText('请输入手机号码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('手机号'), '12345');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(screen.getByText('请输入正确的中国大陆手机号码')).toBeTruthy();
    expect(calls(fetchMock, 'POST', '/api/v1/user/sms/code')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('手机号'));
    await userEvent.type(screen.getByLabelText('手机号'), '+86 138-1234-5678');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(screen.getByRole('button', { name: /秒后重发/ })).toBeTruthy());
    expect(bodyOf(fetchMock, 'POST', '/api/v1/user/sms/code')).toEqual({ mobile: '13812345678', type: 'login' });
    expect(toasts.value.some((t) => t.title === '验证码已发送')).toBe(true);
  });

  it('takes the keyboard to the code field once a code is sent, as the send button counts down disabled', async () => {
    renderApp('/auth/login', {
      settings: smsSettings,
      backend: { 'POST /api/v1/user/sms/code': { status: 200, body: { interval: 60 } } },
    });
    await userEvent.click(await screen.findByRole('tab', { name: '短信登录' }));
    await userEvent.type(screen.getByLabelText('手机号'), '13812345678');
    screen.getByRole('button', { name: '获取验证码' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: /秒后重发/ })).toBeTruthy());
    expect(document.activeElement).toBe(screen.getByLabelText('短信验证码'));
  });

  it('signs in with the number and the code, then goes to the redirect target', async () => {
    const { fetchMock, router } = renderApp('/auth/login?redirect=%2Fmember', {
      settings: smsSettings,
      backend: {
        'POST /api/v1/user/login/mobile': { status: 200, body: { user: { ...member, mobile: '13812345678' } } },
        'GET /api/v1/user/permission': permissionOk,
        'GET /api/v1/user': { status: 200, body: member },
      },
    });
    await userEvent.click(await screen.findByRole('tab', { name: '短信登录' }));
    await userEvent.type(screen.getByLabelText('手机号'), '13812345678');
    await userEvent.type(screen.getByLabelText('短信验证码'), '12a');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('请输入 6 位数字短信验证码')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('短信验证码'));
    await userEvent.type(screen.getByLabelText('短信验证码'), '024680');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member'));
    expect(bodyOf(fetchMock, 'POST', '/api/v1/user/login/mobile')).toEqual({ mobile: '13812345678', code: '024680' });
    expect(session.value.loggedIn).toBe(true);
  });

  it('asks for the image captcha before a code when the settings say so, and renews it after each send', async () => {
    const { fetchMock } = renderApp('/auth/login', {
      settings: { ...smsSettings, security: { ...settings.security, enable_captcha_sms: true } },
      backend: {
        'GET /api/v1/user/captcha': {
          status: 200,
          body: { enable: true, id: 'sms-cap', captcha: 'data:image/png;base64,AA==', type: 'digit' },
        },
        'POST /api/v1/user/sms/code': { status: 429, body: { code: 8, message: '发送太频繁，请 60 秒后再试' } },
      },
    });
    await userEvent.click(await screen.findByRole('tab', { name: '短信登录' }));
    await userEvent.type(screen.getByLabelText('手机号'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('验证码'), '7788');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await waitFor(() =>
      expect(
        toasts.value.some((t) => t.title === '发送验证码失败' && t.description === '发送太频繁，请 60 秒后再试'),
      ).toBe(true),
    );
    expect(bodyOf(fetchMock, 'POST', '/api/v1/user/sms/code')).toEqual({
      mobile: '13812345678',
      type: 'login',
      captcha: '7788',
      captcha_id: 'sms-cap',
    });
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/v1/user/captcha').length).toBeGreaterThanOrEqual(2));
    expect((screen.getByLabelText('验证码') as HTMLInputElement).value).toBe('');
    expect(queryOf(fetchMock, '/api/v1/user/captcha').get('type')).toBe('sms');
  });
});

describe('registration by mobile number', () => {
  it('is the first tab when the site sends SMS, and registers without a username', async () => {
    const { fetchMock, router } = renderApp('/auth/register', {
      settings: smsSettings,
      backend: {
        'POST /api/v1/user/register/mobile': {
          status: 200,
          body: { user: { id: 9, username: '手机用户123456', mobile: '13912345678' } },
        },
        'GET /api/v1/user/permission': permissionOk,
      },
    });
    expect((await screen.findByRole('tab', { name: '手机号注册' })).getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(screen.getByText('请输入手机号码')).toBeTruthy();
    expect(screen.getByText('请输入短信验证码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('手机号'), '139 1234 5678');
    await userEvent.type(screen.getByLabelText('短信验证码'), '135790');
    await userEvent.type(screen.getByLabelText('密码'), 'phone-secret');
    await userEvent.type(screen.getByLabelText('确认密码'), 'phone-secret');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(bodyOf(fetchMock, 'POST', '/api/v1/user/register/mobile')).toEqual({
      mobile: '13912345678',
      code: '135790',
      password: 'phone-secret',
    });
    expect(toasts.value.some((t) => t.title === '注册成功' && t.description === '欢迎加入，手机用户123456')).toBe(true);
  });

  it('checks a chosen username like the username form, and keeps that form one tab away', async () => {
    renderApp('/auth/register', { settings: smsSettings });
    await userEvent.type(await screen.findByLabelText('用户名（选填）'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(screen.getByText('出于隐私保护，用户名不能是邮箱或手机号码')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: '用户名注册' }));
    expect(screen.getByLabelText('邮箱')).toBeTruthy();
    expect(screen.queryByLabelText('短信验证码')).toBeNull();
  });
});

describe('the agreement of a sign-up by SMS', () => {
  const withPages = { ...smsSettings, footer: { agreement: '/article/agreement', privacy: '/article/privacy' } };

  it('says that the login of a new number agrees to the 文库协议 and 隐私政策 where it signs the number up', async () => {
    renderApp('/auth/login', { settings: withPages });
    await userEvent.click(await screen.findByRole('tab', { name: '短信登录' }));
    const agreement = await screen.findByRole('link', { name: '《文库协议》' });
    expect(agreement.getAttribute('href')).toBe('/article/detail/agreement');
    expect(screen.getByRole('link', { name: '《隐私政策》' }).getAttribute('href')).toBe('/article/detail/privacy');
    expect(agreement.closest('p')?.textContent).toBe('注册即表示您已阅读并同意《文库协议》和《隐私政策》');
    cleanup();
    renderApp('/auth/login', { settings: { ...withPages, security: {} } });
    await userEvent.click(await screen.findByRole('tab', { name: '短信登录' }));
    expect(await screen.findByLabelText('手机号')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '《文库协议》' })).toBeNull();
    expect(screen.queryByRole('link', { name: '《隐私政策》' })).toBeNull();
  });

  it('says the same under the registration by mobile number', async () => {
    renderApp('/auth/register', { settings: withPages });
    expect(await screen.findByRole('tab', { name: '手机号注册', selected: true })).toBeTruthy();
    const privacy = await screen.findByRole('link', { name: '《隐私政策》' });
    expect(privacy.getAttribute('href')).toBe('/article/detail/privacy');
    expect(privacy.closest('p')?.textContent).toBe('注册即表示您已阅读并同意《文库协议》和《隐私政策》');
  });
});

describe('password reset by phone', () => {
  it('offers e-mail or phone, and resets with the code, then goes to the login page', async () => {
    const { fetchMock, router } = renderApp('/auth/forgot', {
      settings: smsSettings,
      backend: {
        'POST /api/v1/user/sms/code': { status: 200, body: { interval: 60 } },
        'PUT /api/v1/user/findpassword/mobile': { status: 200, body: {} },
      },
    });
    expect(await screen.findByRole('tab', { name: '邮箱找回' })).toBeTruthy();
    expect(screen.getByLabelText('邮箱')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: '手机找回' }));
    await userEvent.type(screen.getByLabelText('手机号'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(calls(fetchMock, 'POST', '/api/v1/user/sms/code')).toHaveLength(1));
    expect(bodyOf(fetchMock, 'POST', '/api/v1/user/sms/code')).toEqual({
      mobile: '13812345678',
      type: 'find_password',
    });
    await userEvent.type(screen.getByLabelText('短信验证码'), '112233');
    await userEvent.type(screen.getByLabelText('新密码'), 'new-secret');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'new-secret-2');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    expect(screen.getByText('两次输入的密码不一致')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('确认新密码'));
    await userEvent.type(screen.getByLabelText('确认新密码'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(bodyOf(fetchMock, 'PUT', '/api/v1/user/findpassword/mobile')).toEqual({
      mobile: '13812345678',
      code: '112233',
      password: 'new-secret',
    });
  });

  it('keeps the page to return to from 忘记密码？ through the reset to the login after it', async () => {
    const back = `?redirect=${encodeURIComponent('/library/7/5')}`;
    const { router } = renderApp(`/auth/login${back}`, {
      settings: smsSettings,
      backend: {
        'POST /api/v1/user/sms/code': { status: 200, body: { interval: 60 } },
        'PUT /api/v1/user/findpassword/mobile': { status: 200, body: {} },
      },
    });
    await userEvent.click(await screen.findByRole('link', { name: '忘记密码？' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(`/auth/forgot${back}`),
    );
    expect((await screen.findByRole('link', { name: '返回登录' })).getAttribute('href')).toBe(`/auth/login${back}`);
    await userEvent.click(screen.getByRole('tab', { name: '手机找回' }));
    await userEvent.type(screen.getByLabelText('手机号'), '13812345678');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await userEvent.type(screen.getByLabelText('短信验证码'), '112233');
    await userEvent.type(screen.getByLabelText('新密码'), 'new-secret');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(`/auth/login${back}`),
    );
  });

  it('offers e-mail only while the site can mail the link, and says whom to ask when it can do neither', async () => {
    renderApp('/auth/forgot', { settings: { ...smsSettings, email: { enable: false } } });
    expect(await screen.findByLabelText('手机号')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: '邮箱找回' })).toBeNull();
    expect(screen.queryByLabelText('邮箱')).toBeNull();
    cleanup();
    renderApp('/auth/forgot', { settings: { ...settings, system: { ...settings.system, domain: '' } } });
    expect(await screen.findByText('本站暂未开通邮箱或短信找回密码，请联系网站管理员重置密码。')).toBeTruthy();
    expect(screen.queryByLabelText('邮箱')).toBeNull();
    cleanup();
    renderApp('/auth/forgot');
    expect(await screen.findByLabelText('邮箱')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: '手机找回' })).toBeNull();
  });

  it("keeps the e-mail link's step two without tabs", async () => {
    renderApp('/auth/forgot?email=amy%40example.com&token=t', { settings: smsSettings });
    expect(await screen.findByText('为 amy@example.com 设置新密码。')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });
});

describe('a code the server refuses', () => {
  const refused = (message: string) => ({ status: 400, body: { code: 3, message } });
  const saysUnderCode = async (message: string) => {
    const code = screen.getByLabelText('短信验证码');
    await waitFor(() =>
      expect(document.getElementById(code.getAttribute('aria-describedby') ?? '')?.textContent).toBe(message),
    );
    expect(document.activeElement).toBe(code);
    expect(toasts.value.map((t) => t.description)).not.toContain(message);
  };

  it('is said under the code field of the SMS login, with the keyboard there, not in a toast', async () => {
    renderApp('/auth/login', {
      settings: smsSettings,
      backend: { 'POST /api/v1/user/login/mobile': refused('短信验证码错误，还可尝试 4 次') },
    });
    await userEvent.click(await screen.findByRole('tab', { name: '短信登录' }));
    await userEvent.type(screen.getByLabelText('手机号'), '13812345678');
    await userEvent.type(screen.getByLabelText('短信验证码'), '111111');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await saysUnderCode('短信验证码错误，还可尝试 4 次');
  });

  it('is said under the code field of the registration by mobile number, the password kept', async () => {
    renderApp('/auth/register', {
      settings: smsSettings,
      backend: { 'POST /api/v1/user/register/mobile': refused('短信验证码已过期，请重新获取') },
    });
    await userEvent.type(await screen.findByLabelText('手机号'), '13912345678');
    await userEvent.type(screen.getByLabelText('短信验证码'), '135790');
    await userEvent.type(screen.getByLabelText('密码'), 'phone-secret');
    await userEvent.type(screen.getByLabelText('确认密码'), 'phone-secret');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    await saysUnderCode('短信验证码已过期，请重新获取');
    expect((screen.getByLabelText('密码') as HTMLInputElement).value).toBe('phone-secret');
  });

  it('is said under the code field of the password reset by phone', async () => {
    renderApp('/auth/forgot', {
      settings: smsSettings,
      backend: { 'PUT /api/v1/user/findpassword/mobile': refused('请先获取短信验证码') },
    });
    await userEvent.click(await screen.findByRole('tab', { name: '手机找回' }));
    await userEvent.type(screen.getByLabelText('手机号'), '13812345678');
    await userEvent.type(screen.getByLabelText('短信验证码'), '112233');
    await userEvent.type(screen.getByLabelText('新密码'), 'new-secret');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    await saysUnderCode('请先获取短信验证码');
  });
});

describe("the member's mobile number", () => {
  it('binds a number with a code to it; the profile form no longer edits it but sends it unchanged', async () => {
    const { fetchMock } = renderApp('/member/profile', {
      user: member,
      settings: smsSettings,
      backend: {
        'GET /api/v1/user': { status: 200, body: member },
        'POST /api/v1/user/sms/code': { status: 200, body: { interval: 60 } },
        'PUT /api/v1/user/mobile': { status: 200, body: {} },
        'PUT /api/v1/user/profile': { status: 200, body: {} },
      },
    });
    const panel = within((await screen.findByRole('heading', { name: '手机号' })).closest('section') as HTMLElement);
    expect(panel.getByText('尚未绑定手机号。')).toBeTruthy();
    expect(screen.queryByLabelText('手机号码')).toBeNull();
    await userEvent.click(panel.getByRole('button', { name: '绑定手机号' }));
    await userEvent.type(panel.getByLabelText('手机号'), '13712345678');
    await userEvent.click(panel.getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(calls(fetchMock, 'POST', '/api/v1/user/sms/code')).toHaveLength(1));
    expect(bodyOf(fetchMock, 'POST', '/api/v1/user/sms/code')).toEqual({ mobile: '13712345678', type: 'bind' });
    await userEvent.type(panel.getByLabelText('短信验证码'), '445566');
    await userEvent.click(panel.getByRole('button', { name: '确认绑定' }));
    await waitFor(() =>
      expect(toasts.value.some((t) => t.title === '绑定成功' && t.description === '手机号已绑定为 137****5678')).toBe(
        true,
      ),
    );
    expect(bodyOf(fetchMock, 'PUT', '/api/v1/user/mobile')).toEqual({ mobile: '13712345678', code: '445566' });
    expect(session.value.user?.mobile).toBe('13712345678');

    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(calls(fetchMock, 'PUT', '/api/v1/user/profile')).toHaveLength(1));
    expect(bodyOf(fetchMock, 'PUT', '/api/v1/user/profile')).toMatchObject({ id: 2, mobile: '13712345678' });
  });

  it('says a refused code or number under its field, with the keyboard there, not in a toast', async () => {
    const refusals = [
      { status: 400, body: { code: 3, message: '短信验证码错误，还可尝试 4 次' } },
      { status: 409, body: { code: 6, message: '该手机号已绑定其他账号' } },
    ];
    renderApp('/member/profile', {
      user: member,
      settings: smsSettings,
      backend: {
        'GET /api/v1/user': { status: 200, body: member },
        'PUT /api/v1/user/mobile': () => refusals.shift() ?? { status: 200, body: {} },
      },
    });
    const panel = within((await screen.findByRole('heading', { name: '手机号' })).closest('section') as HTMLElement);
    await userEvent.click(panel.getByRole('button', { name: '绑定手机号' }));
    const number = panel.getByLabelText('手机号');
    const code = panel.getByLabelText('短信验证码');
    const said = (field: HTMLElement) =>
      document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
    await userEvent.type(number, '13712345678');
    await userEvent.type(code, '111111');
    await userEvent.click(panel.getByRole('button', { name: '确认绑定' }));
    await waitFor(() => expect(said(code)).toBe('短信验证码错误，还可尝试 4 次'));
    expect(document.activeElement).toBe(code);

    await userEvent.clear(code);
    await userEvent.type(code, '445566');
    await userEvent.click(panel.getByRole('button', { name: '确认绑定' }));
    await waitFor(() => expect(said(number)).toBe('该手机号已绑定其他账号'));
    expect(document.activeElement).toBe(number);
    expect((number as HTMLInputElement).value).toBe('13712345678');
    expect(toasts.value.filter((t) => t.color === 'error')).toEqual([]);
  });

  it('shows the bound number masked and says when the site cannot send SMS', async () => {
    renderApp('/member/profile', {
      user: member,
      backend: { 'GET /api/v1/user': { status: 200, body: { ...member, mobile: '13812340000' } } },
    });
    expect(await screen.findByText('已绑定 138****0000，可用手机号和短信验证码登录、找回密码。')).toBeTruthy();
    expect(screen.getByText('本站暂未开通短信服务，暂不能更换手机号。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '更换手机号' })).toBeNull();
  });
});

describe('the SMS admin screens', () => {
  const perm = (id: number, path: string): Permission => ({ id, method: 'GRPC', path, title: path });
  const userPermissions = [
    perm(1, '/api.v1.UserAPI/ListUser'),
    perm(2, '/api.v1.UserAPI/ListSmsLog'),
    perm(3, '/api.v1.UserAPI/GetSmsStats'),
  ];
  const log = [
    {
      id: 12,
      mobile: '138****0000',
      purpose: 'login',
      provider: 'aliyun',
      status: 2,
      error: 'isv.BUSINESS_LIMIT_CONTROL: 触发号码天级流控',
      ip: '203.0.113.9',
      created_at: '2025-03-01T08:00:00Z',
    },
    {
      id: 11,
      mobile: '139****1111',
      purpose: 'register',
      provider: 'log',
      status: 1,
      ip: '203.0.113.8',
      created_at: '2025-03-01T07:59:00Z',
    },
  ];
  const stats = {
    enable: true,
    provider: 'aliyun',
    interval: 60,
    site_last_hour: 2,
    site_hourly_limit: 500,
    sent_last_day: 1,
    failed_last_day: 1,
    mobile_daily_limit: 10,
    ip_hourly_limit: 20,
  };

  it('lists the messages with masked numbers, purpose, provider and result, filtered, and the counters against the limits', async () => {
    const { fetchMock } = renderApp('/admin/user/sms', {
      user: admin,
      permissions: userPermissions,
      backend: {
        'GET /api/v1/user/sms/list': { status: 200, body: { total: 2, sms_log: log } },
        'GET /api/v1/user/sms/stats': (url) => ({
          status: 200,
          body: url.searchParams.get('mobile') ? { ...stats, mobile_last_day: 4 } : stats,
        }),
      },
    });
    expect(await screen.findByRole('heading', { name: '短信管理', level: 1 })).toBeTruthy();
    expect(await screen.findByText('138****0000')).toBeTruthy();
    expect(screen.getByText('isv.BUSINESS_LIMIT_CONTROL: 触发号码天级流控')).toBeTruthy();
    expect(screen.getByText('已记录（未发送）')).toBeTruthy();
    expect(screen.getByText('失败')).toBeTruthy();
    expect(screen.getAllByText('阿里云短信').length).toBeGreaterThan(0);
    const filters = within(screen.getByRole('search', { name: '筛选' }));
    await userEvent.type(filters.getByLabelText('手机号'), '13812340000');
    await userEvent.click(filters.getByRole('button', { name: /搜索/ }));
    await waitFor(() =>
      expect(
        calls(fetchMock, 'GET', '/api/v1/user/sms/list').some(([url]) => String(url).includes('mobile=13812340000')),
      ).toBe(true),
    );

    const counters = within(screen.getByRole('heading', { name: /发送统计与限制/ }).closest('section') as HTMLElement);
    expect(await counters.findByText('全站近 1 小时')).toBeTruthy();
    expect(counters.getByText(/同一手机号每 60 秒最多 1 条、任意 24 小时最多 10 条/)).toBeTruthy();
    await userEvent.type(counters.getByLabelText('手机号'), '1381234');
    await userEvent.click(counters.getByRole('button', { name: '查询' }));
    expect(counters.getByText('请输入正确的中国大陆手机号码')).toBeTruthy();
    await userEvent.clear(counters.getByLabelText('手机号'));
    await userEvent.type(counters.getByLabelText('手机号'), '138 1234 0000');
    await userEvent.click(counters.getByRole('button', { name: '查询' }));
    expect(await counters.findByText('该号码近 24 小时')).toBeTruthy();
    const lookups = calls(fetchMock, 'GET', '/api/v1/user/sms/stats').map(([url]) =>
      new URL(String(url), 'http://localhost').searchParams.get('mobile'),
    );
    expect(lookups).toContain('13812340000');
  });

  it('tells an admin who may list users but not read the SMS log or counters so, and asks the server for neither', async () => {
    const refused = { status: 403, body: { code: 7, message: '您没有权限访问【短信发送记录】' } };
    const { fetchMock } = renderApp('/admin/user/sms', {
      // Not the super admin (id 1), who holds every permission.
      user: { id: 7, username: 'editor' },
      permissions: [perm(1, '/api.v1.UserAPI/ListUser')],
      backend: { 'GET /api/v1/user/sms/list': refused, 'GET /api/v1/user/sms/stats': refused },
    });
    expect(await screen.findByRole('heading', { name: '短信管理', level: 1 })).toBeTruthy();
    expect(screen.getByRole('note').textContent).toBe(
      '您没有“短信发送记录”和“短信发送统计”权限，不能查看短信记录。如需查看，请联系管理员在“角色管理”中为您的角色授予。',
    );
    expect(screen.queryByText('加载失败')).toBeNull();
    expect(screen.queryByRole('heading', { name: /发送统计与限制/ })).toBeNull();
    expect(calls(fetchMock, 'GET', '/api/v1/user/sms/list')).toHaveLength(0);
    expect(calls(fetchMock, 'GET', '/api/v1/user/sms/stats')).toHaveLength(0);
  });

  it('shows the counters alone to an admin who may read them but not the log', async () => {
    const { fetchMock } = renderApp('/admin/user/sms', {
      user: { id: 7, username: 'editor' },
      permissions: [perm(1, '/api.v1.UserAPI/ListUser'), perm(3, '/api.v1.UserAPI/GetSmsStats')],
      backend: { 'GET /api/v1/user/sms/stats': { status: 200, body: stats } },
    });
    const counters = within((await screen.findByRole('heading', { name: /发送统计与限制/ })).closest('section')!);
    expect(await counters.findByText('全站近 1 小时')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('您没有“短信发送记录”权限，只能查看下方的发送统计。');
    expect(calls(fetchMock, 'GET', '/api/v1/user/sms/list')).toHaveLength(0);
  });

  it('offers no test message on the SMS config page to an admin who may not send one', async () => {
    renderApp('/admin/config/sms', {
      user: { id: 7, username: 'editor' },
      permissions: [perm(4, '/api.v1.ConfigAPI/ListConfig')],
      backend: {
        'GET /api/v1/config/list': {
          status: 200,
          body: {
            config: [
              {
                id: 90,
                name: 'enable',
                label: '是否启用短信服务',
                value: 'true',
                input_type: 'switch',
                category: 'sms',
              },
            ],
          },
        },
      },
    });
    expect(await screen.findByRole('switch', { name: '是否启用短信服务' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: '发送测试短信' })).toBeNull();
    expect(screen.queryByRole('button', { name: '发送测试短信' })).toBeNull();
  });

  it("sends a test message from the SMS config page and names the provider's reason when it fails", async () => {
    let fail = false;
    const { fetchMock } = renderApp('/admin/config/sms', {
      user: admin,
      permissions: [perm(4, '/api.v1.ConfigAPI/ListConfig'), perm(5, '/api.v1.ConfigAPI/SendTestSms')],
      backend: {
        'GET /api/v1/config/list': {
          status: 200,
          body: {
            config: [
              {
                id: 90,
                name: 'enable',
                label: '是否启用短信服务',
                value: 'true',
                input_type: 'switch',
                category: 'sms',
              },
            ],
          },
        },
        'POST /api/v1/config/sms/test': () =>
          fail
            ? { status: 502, body: { code: 14, message: '短信发送失败：SignatureDoesNotMatch: …' } }
            : { status: 200, body: {} },
      },
    });
    expect(await screen.findByRole('heading', { name: '短信配置' })).toBeTruthy();
    expect(await screen.findByRole('switch', { name: '是否启用短信服务' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '发送测试短信' }));
    expect(screen.getByText('请输入手机号码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('接收手机号'), '13800000000');
    await userEvent.click(screen.getByRole('button', { name: '发送测试短信' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '测试短信已发送')).toBe(true));
    expect(bodyOf(fetchMock, 'POST', '/api/v1/config/sms/test')).toEqual({ mobile: '13800000000' });
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: '发送测试短信' }));
    await waitFor(() =>
      expect(
        toasts.value.some(
          (t) => t.title === '测试短信发送失败' && t.description === '短信发送失败：SignatureDoesNotMatch: …',
        ),
      ).toBe(true),
    );
  });
});
