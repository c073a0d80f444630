import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearSession, session } from '../../web/src/features/session/session-store';
import { clearToasts, pauseToast, toasts } from '../../web/src/kit/toasts/toast-store';
import { member, renderApp, settings, type Backend } from './render-app';

const permissionOk = { status: 200, body: { permission: [] } };
/**
 * A field the server refused, as the form shows it: the keyboard there, the field marked invalid,
 * the server's message under it (the text the field is described by).
 */
async function saysUnder(field: HTMLElement, message: string) {
  await waitFor(() => expect(document.activeElement).toBe(field));
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(message);
}
const requestsTo = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], path: string) =>
  fetchMock.mock.calls.filter(([url]) => String(url).startsWith(path));

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

describe('login screen', () => {
  it('checks the input in Chinese before sending anything', async () => {
    const { fetchMock } = renderApp('/auth/login');
    await userEvent.click(await screen.findByRole('button', { name: '登录' }));
    expect(screen.getByText('请输入用户名、邮箱或手机号')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('用户名'), 'ab');
    await userEvent.type(screen.getByLabelText('密码'), '123');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('用户名长度必须在 3 到 32 个字符之间')).toBeTruthy();
    expect(screen.getByText('密码长度必须在 6 到 128 个字符之间')).toBeTruthy();
    expect(requestsTo(fetchMock, '/api/v1/user/login')).toHaveLength(0);
  });

  it('shows and hides the password with a button named in Chinese, keeping what was typed', async () => {
    renderApp('/auth/login');
    const box = () => screen.getByLabelText('密码') as HTMLInputElement;
    await userEvent.type(await screen.findByLabelText('密码'), 'secret123');
    expect(box().type).toBe('password');
    // Semi's own button is named in English ("Show password"), whatever the locale.
    expect(document.querySelector('[aria-label="Show password"], [aria-label="Hidden password"]')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(box().type).toBe('text');
    expect(box().value).toBe('secret123');
    await userEvent.click(screen.getByRole('button', { name: '隐藏密码' }));
    expect(box().type).toBe('password');
  });

  it('logs in, loads the permissions and returns to the redirect target', async () => {
    const { router, fetchMock } = renderApp('/auth/login?redirect=%2Fmember%2Fprofile', {
      backend: {
        'POST /api/v1/user/login': { status: 200, body: { user: member } },
        'GET /api/v1/user/permission': permissionOk,
        'GET /api/v1/user': { status: 200, body: member },
      },
    });
    await userEvent.type(await screen.findByLabelText('用户名'), 'amy');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member/profile'));
    expect(session.value).toMatchObject({ loggedIn: true, user: member });
    expect(toasts.value.some((t) => t.title === '登录成功')).toBe(true);
    const body = JSON.parse(String(requestsTo(fetchMock, '/api/v1/user/login')[0]?.[1]?.body)) as Record<
      string,
      unknown
    >;
    expect(body).toEqual({ username: 'amy', password: 'secret123' });
  });

  it('never follows a redirect to another site', async () => {
    const { router } = renderApp('/auth/login?redirect=%2F%2Fevil.example', {
      backend: {
        'POST /api/v1/user/login': { status: 200, body: { user: member } },
        'GET /api/v1/user/permission': permissionOk,
      },
    });
    await userEvent.type(await screen.findByLabelText('用户名'), 'amy');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("keeps the page the visitor left, from the header's 登录 and 注册 through both screens' links to each other", async () => {
    const page = '/search?wd=%E5%90%88%E5%90%8C';
    const { router } = renderApp(page);
    const back = `?redirect=${encodeURIComponent(page)}`;
    expect((await screen.findByRole('link', { name: '注册' })).getAttribute('href')).toBe(`/auth/register${back}`);
    await userEvent.click(screen.getByRole('link', { name: '登录' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(`/auth/login${back}`),
    );
    await userEvent.click(await screen.findByRole('link', { name: '注册账号' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/register'));
    expect(router.state.location.search).toBe(back);
    await userEvent.click(await screen.findByRole('link', { name: '已有账号？去登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe(back);
  });

  it('shows 登录失败 with the server message and stays on the page', async () => {
    const { router } = renderApp('/auth/login', {
      backend: { 'POST /api/v1/user/login': { status: 400, body: { code: 3, message: '用户名或密码错误' } } },
    });
    await userEvent.type(await screen.findByLabelText('用户名'), 'amy');
    await userEvent.type(screen.getByLabelText('密码'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(toasts.value[0]).toMatchObject({ title: '登录失败', description: '用户名或密码错误' }));
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(session.value.loggedIn).toBe(false);
  });

  /** The login screen with the captcha on, and a login the server refuses with `message`. */
  const renderLoginWithCaptcha = (message: string) =>
    renderApp('/auth/login', {
      settings: { ...settings, security: { ...settings.security, enable_captcha_login: true } },
      backend: {
        'GET /api/v1/user/captcha': {
          status: 200,
          body: { enable: true, id: 'cap-1', captcha: 'data:image/png;base64,AA==', type: 'digit' },
        },
        'POST /api/v1/user/login': { status: 400, body: { code: 3, message } },
      },
    });

  it('asks for the captcha when the settings enable it and sends it with its id', async () => {
    const { fetchMock } = renderLoginWithCaptcha('验证码错误');
    const captcha = await screen.findByLabelText('验证码');
    await userEvent.type(screen.getByLabelText('用户名'), 'amy');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    await userEvent.type(captcha, '1234');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(requestsTo(fetchMock, '/api/v1/user/login')).toHaveLength(1));
    const body = JSON.parse(String(requestsTo(fetchMock, '/api/v1/user/login')[0]?.[1]?.body)) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ captcha: '1234', captcha_id: 'cap-1' });
    // a refused captcha is replaced: a new one is fetched
    await waitFor(() => expect(requestsTo(fetchMock, '/api/v1/user/captcha?type=login')).toHaveLength(2));
  });

  it('shows a 语音 captcha drawn as an image as that image, and plays one sent as sound', async () => {
    for (const [captcha, shown] of [
      ['data:image/svg+xml;base64,PHN2Zy8+', 'image'],
      ['data:audio/wav;base64,UklGRg==', 'audio'],
    ] as const) {
      const { unmount } = renderApp('/auth/login', {
        settings: { ...settings, security: { ...settings.security, enable_captcha_login: true } },
        backend: {
          'GET /api/v1/user/captcha': { status: 200, body: { enable: true, id: 'cap-1', captcha, type: 'audio' } },
        },
      });
      await screen.findByLabelText('验证码');
      if (shown === 'image') {
        expect((await screen.findByRole('img', { name: '验证码' })).getAttribute('src')).toBe(captcha);
        expect(document.querySelector('audio')).toBeNull();
      } else {
        await waitFor(() => expect(screen.getByLabelText('语音验证码').getAttribute('src')).toBe(captcha));
        expect(screen.queryByRole('img', { name: '验证码' })).toBeNull();
      }
      unmount();
    }
  });

  it('asks for the result of an 算术 captcha', async () => {
    renderApp('/auth/login', {
      settings: { ...settings, security: { ...settings.security, enable_captcha_login: true } },
      backend: {
        'GET /api/v1/user/captcha': {
          status: 200,
          body: { enable: true, id: 'cap-1', captcha: 'data:image/svg+xml;base64,PHN2Zy8+', type: 'math' },
        },
      },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('验证码').placeholder).toBe('请输入计算结果'));
  });

  it('keeps a right captcha after a wrong password, so it need not be typed again', async () => {
    const { fetchMock } = renderLoginWithCaptcha('用户名或密码错误');
    const captcha = await screen.findByLabelText<HTMLInputElement>('验证码');
    await userEvent.type(screen.getByLabelText('用户名'), 'amy');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.type(captcha, '1234');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(toasts.value[0]).toMatchObject({ description: '用户名或密码错误' }));
    expect(captcha.value).toBe('1234');
    expect(requestsTo(fetchMock, '/api/v1/user/captcha?type=login')).toHaveLength(1);
  });

  it('shows the WeChat and QQ buttons only when their flags are on', async () => {
    const { unmount } = renderApp('/auth/login');
    await screen.findByRole('heading', { name: '登录' });
    expect(screen.queryByRole('button', { name: '微信登录' })).toBeNull();
    unmount();
    renderApp('/auth/login', { settings: { ...settings, oauth: { qq: true } } });
    expect(await screen.findByRole('button', { name: 'QQ 登录' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '微信登录' })).toBeNull();
  });

  it('says under the WeChat and QQ buttons, which sign a new person up, what registering agrees to', async () => {
    const footer = { agreement: '/article/agreement', privacy: '/article/privacy' };
    const { unmount } = renderApp('/auth/login', {
      settings: { ...settings, footer, oauth: { wechat: true, qq: true }, sms: { enable: true } },
    });
    const buttons = (await screen.findByRole('button', { name: '微信登录' })).parentElement;
    const note = buttons?.nextElementSibling;
    expect(note?.textContent).toBe('注册即表示您已阅读并同意《文库协议》和《隐私政策》');
    expect(
      within(note as HTMLElement)
        .getByRole('link', { name: '《隐私政策》' })
        .getAttribute('href'),
    ).toBe('/article/detail/privacy');
    // Once on the screen: the SMS form, which signs a new number up, says it under its own button.
    await userEvent.click(screen.getByRole('tab', { name: '短信登录' }));
    expect(screen.getAllByText(/注册即表示/)).toHaveLength(1);
    unmount();
    // Where no account is made, nothing is agreed to.
    renderApp('/auth/login', {
      settings: { ...settings, footer, oauth: { wechat: true }, security: { enable_register: false } },
    });
    await screen.findByRole('button', { name: '微信登录' });
    expect(screen.queryByText(/注册即表示/)).toBeNull();
  });

  it("tells visitors of a closed site that it is closed, with the admin's statement, and that only admins sign in", async () => {
    renderApp('/auth/login', {
      settings: {
        ...settings,
        security: { enable_register: true, is_close: true, close_statement: '<p>系统升级中</p><p>预计今晚恢复</p>' },
      },
    });
    const notice = await screen.findByTestId('login-site-closed');
    expect(notice.textContent).toContain('站点已关闭');
    expect([...notice.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      '系统升级中',
      '预计今晚恢复',
      '目前仅管理员可以登录。',
    ]);
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: '注册账号' })).toBeNull();
  });

  it('tells visitors of a site open to members only that they must sign in, and where to sign up when they may', async () => {
    const { unmount } = renderApp('/auth/login', {
      settings: { ...settings, security: { enable_register: true, login_required: true } },
    });
    expect((await screen.findByTestId('login-required')).textContent).toBe('本站需登录后才能访问，请登录或注册账号。');
    expect(screen.getByRole('link', { name: '注册账号' })).toBeTruthy();
    unmount();
    renderApp('/auth/login', { settings: { ...settings, security: { login_required: true } } });
    expect((await screen.findByTestId('login-required')).textContent).toBe('本站需登录后才能访问，请登录。');
    expect(screen.queryByRole('link', { name: '注册账号' })).toBeNull();
  });

  it('says nothing of a closure or of signing in first while the site is open to all', async () => {
    renderApp('/auth/login');
    await screen.findByRole('heading', { name: '登录' });
    expect(screen.queryByTestId('login-site-closed')).toBeNull();
    expect(screen.queryByTestId('login-required')).toBeNull();
    expect(screen.queryByText('站点已关闭')).toBeNull();
  });
});

describe('register screen', () => {
  it('registers, lands logged in on the home page', async () => {
    const { router, fetchMock } = renderApp('/auth/register', {
      backend: {
        'POST /api/v1/user/register': { status: 200, body: { user: member } },
        'GET /api/v1/user/permission': permissionOk,
      },
    });
    await userEvent.type(await screen.findByLabelText('用户名'), 'amy');
    await userEvent.type(screen.getByLabelText('邮箱'), 'amy@example.com');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.type(screen.getByLabelText('确认密码'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(session.value.loggedIn).toBe(true);
    expect(await screen.findByTestId('user-menu')).toBeTruthy();
    expect(requestsTo(fetchMock, '/api/v1/user/register')).toHaveLength(1);
  });

  it('refuses a user name that is an e-mail or a mobile number, and mismatched passwords', async () => {
    const { fetchMock } = renderApp('/auth/register');
    await userEvent.type(await screen.findByLabelText('用户名'), '13812345678');
    await userEvent.type(screen.getByLabelText('邮箱'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.type(screen.getByLabelText('确认密码'), 'secret124');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(screen.getByText('出于隐私保护，用户名不能是邮箱或手机号码')).toBeTruthy();
    expect(screen.getByText('邮箱格式不正确')).toBeTruthy();
    expect(screen.getByText('两次输入的密码不一致')).toBeTruthy();
    expect(requestsTo(fetchMock, '/api/v1/user/register')).toHaveLength(0);
  });

  it('says a taken username or e-mail under its field, with the keyboard there, not in a toast', async () => {
    let taken = '用户名已存在';
    renderApp('/auth/register', {
      backend: { 'POST /api/v1/user/register': () => ({ status: 409, body: { code: 6, message: taken } }) },
    });
    const username = await screen.findByLabelText('用户名');
    await userEvent.type(username, 'amy');
    await userEvent.type(screen.getByLabelText('邮箱'), 'amy@example.com');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.type(screen.getByLabelText('确认密码'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    await saysUnder(username, '用户名已存在');
    taken = '邮箱已存在';
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    const email = screen.getByLabelText('邮箱');
    await saysUnder(email, '邮箱已存在');
    expect(username.getAttribute('aria-invalid')).not.toBe('true');
    expect(toasts.value.filter((t) => t.title === '注册失败')).toEqual([]);
  });

  it('shows 注册失败 with the server message', async () => {
    renderApp('/auth/register', {
      backend: { 'POST /api/v1/user/register': { status: 400, body: { code: 3, message: '系统未开放注册' } } },
    });
    await userEvent.type(await screen.findByLabelText('用户名'), 'amy');
    await userEvent.type(screen.getByLabelText('邮箱'), 'amy@example.com');
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.type(screen.getByLabelText('确认密码'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    await waitFor(() => expect(toasts.value[0]).toMatchObject({ title: '注册失败', description: '系统未开放注册' }));
    // Sent again with a name the form itself refuses: the old toast goes, the field says why.
    const username = screen.getByLabelText('用户名');
    await userEvent.clear(username);
    await userEvent.type(username, '13812345678');
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(screen.getByText('出于隐私保护，用户名不能是邮箱或手机号码')).toBeTruthy();
    expect(toasts.value.filter((t) => t.open && t.title === '注册失败')).toEqual([]);
  });

  it('says, before registering by name or with an e-mail code, that it is agreeing to the 文库协议 and 隐私政策, in new tabs', async () => {
    const footer = { agreement: '/article/agreement', privacy: '/article/privacy' };
    for (const security of [{ enable_register: true }, { enable_register: true, enable_verify_register_email: true }]) {
      renderApp('/auth/register', { settings: { ...settings, footer, security } });
      const agreement = await screen.findByRole('link', { name: '《文库协议》' });
      expect(agreement.getAttribute('href')).toBe('/article/detail/agreement');
      expect(screen.getByRole('link', { name: '《隐私政策》' }).getAttribute('href')).toBe('/article/detail/privacy');
      // Read beside the form, not instead of it: back from a page would bring an empty form.
      for (const name of ['《文库协议》', '《隐私政策》']) {
        expect(screen.getByRole('link', { name }).getAttribute('target')).toBe('_blank');
        expect(screen.getByRole('link', { name }).getAttribute('rel')).toContain('noopener');
      }
      expect(agreement.closest('p')?.textContent).toBe('注册即表示您已阅读并同意《文库协议》和《隐私政策》');
      cleanup();
    }
  });

  it('names only the pages the site has: no link to a removed 隐私政策 or 文库协议', async () => {
    renderApp('/auth/register', { settings: { ...settings, footer: { agreement: '/article/agreement' } } });
    const agreement = await screen.findByRole('link', { name: '《文库协议》' });
    expect(agreement.closest('p')?.textContent).toBe('注册即表示您已阅读并同意《文库协议》');
    cleanup();
    renderApp('/auth/register', { settings: { ...settings, footer: { privacy: '/article/privacy' } } });
    const privacy = await screen.findByRole('link', { name: '《隐私政策》' });
    expect(privacy.closest('p')?.textContent).toBe('注册即表示您已阅读并同意《隐私政策》');
    cleanup();
    renderApp('/auth/register', { settings: { ...settings, footer: {} } });
    expect(await screen.findByRole('button', { name: '注册' })).toBeTruthy();
    expect(screen.queryByText(/注册即表示/)).toBeNull();
  });

  it('shows a new captcha when the e-mail code is refused for the captcha', async () => {
    const { fetchMock } = renderApp('/auth/register', {
      settings: {
        ...settings,
        security: { ...settings.security, enable_captcha_register: true, enable_verify_register_email: true },
      },
      backend: {
        'GET /api/v1/user/captcha': {
          status: 200,
          body: { enable: true, id: 'cap-1', captcha: 'data:image/png;base64,AA==', type: 'digit' },
        },
        'POST /api/v1/user/email/code': { status: 400, body: { code: 3, message: '验证码错误' } },
      },
    });
    await userEvent.type(await screen.findByLabelText('邮箱'), 'amy@example.com');
    await userEvent.type(await screen.findByLabelText('验证码'), '1234');
    await userEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    await waitFor(() => expect(requestsTo(fetchMock, '/api/v1/user/captcha?type=register')).toHaveLength(2));
    expect(screen.getByLabelText<HTMLInputElement>('验证码').value).toBe('');
    expect(toasts.value[0]).toMatchObject({ title: '发送验证码失败', description: '验证码错误' });
  });

  it('says so when registration is closed', async () => {
    renderApp('/auth/register', { settings: { ...settings, security: {} } });
    expect(await screen.findByText('系统未开放注册')).toBeTruthy();
  });
});

describe('password reset screen', () => {
  it('asks a new captcha for 重新发送, as the mail sent spent the one it went with', async () => {
    const { fetchMock } = renderApp('/auth/forgot', {
      settings: { ...settings, security: { ...settings.security, enable_captcha_find_password: true } },
      backend: {
        'GET /api/v1/user/captcha': {
          status: 200,
          body: { enable: true, id: 'cap-1', captcha: 'data:image/png;base64,AA==', type: 'digit' },
        },
        'POST /api/v1/user/findpassword/stepone': { status: 200, body: {} },
      },
    });
    await userEvent.type(await screen.findByLabelText('邮箱'), 'amy@example.com');
    await userEvent.type(await screen.findByLabelText('验证码'), '1234');
    await userEvent.click(screen.getByRole('button', { name: '发送重置邮件' }));
    await userEvent.click(await screen.findByRole('button', { name: '重新发送' }));
    await waitFor(() => expect(requestsTo(fetchMock, '/api/v1/user/captcha?type=find_password')).toHaveLength(2));
    expect(screen.getByLabelText<HTMLInputElement>('验证码').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('邮箱').value).toBe('amy@example.com');
  });

  it('shows one 发送失败 however often sending fails, the latest message in it', async () => {
    const { fetchMock } = renderApp('/auth/forgot', {
      backend: {
        'POST /api/v1/user/findpassword/stepone': { status: 400, body: { code: 3, message: '邮件服务未配置' } },
      },
    });
    await userEvent.type(await screen.findByLabelText('邮箱'), 'amy@example.com');
    const failures = () => toasts.value.filter((t) => t.title === '发送失败');
    let latest = 0;
    for (let click = 1; click <= 3; click++) {
      await userEvent.click(screen.getByRole('button', { name: '发送重置邮件' }));
      // Each failure raises a new toast (a higher id); the one before it is gone.
      await waitFor(() => expect(failures().some((t) => t.id > latest)).toBe(true));
      expect(failures()).toHaveLength(1);
      latest = failures()[0]!.id;
    }
    expect(requestsTo(fetchMock, '/api/v1/user/findpassword/stepone')).toHaveLength(3);
    expect(toasts.value).toHaveLength(1);
    expect(toasts.value[0]).toMatchObject({ title: '发送失败', description: '邮件服务未配置', open: true });
  });

  it('leads from a spent or lapsed link back to step one, with the address filled in', async () => {
    const { router } = renderApp('/auth/forgot?email=amy%40example.com&token=spent', {
      backend: {
        'PUT /api/v1/user/findpassword/steptwo': {
          status: 400,
          body: { code: 3, message: '链接无效或已过期，请重新找回密码' },
        },
      },
    });
    await userEvent.type(await screen.findByLabelText('新密码'), 'new-secret');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '重置密码失败')).toBe(true));
    await userEvent.click(screen.getByRole('link', { name: '重新发送重置邮件' }));
    await waitFor(() => expect(router.state.location.search).toBe('?email=amy%40example.com'));
    expect(((await screen.findByLabelText('邮箱')) as HTMLInputElement).value).toBe('amy@example.com');
    expect(screen.getByRole('button', { name: '发送重置邮件' })).toBeTruthy();
  });
});

describe('member profile screen', () => {
  /** /member/profile for the member, whose account the backend answers, with these calls beside. */
  const renderProfile = (backend: Backend = {}) =>
    renderApp('/member/profile', {
      user: member,
      backend: { 'GET /api/v1/user': { status: 200, body: member }, ...backend },
    });

  it('saves the profile, merging the fields into the session, and shows 修改失败 on failure', async () => {
    let fail = false;
    const { fetchMock } = renderProfile({
      'GET /api/v1/user': { status: 200, body: { ...member, avatar: '/uploads/a.png' } },
      'PUT /api/v1/user/profile': () =>
        fail
          ? { status: 400, body: { code: 3, message: '个性签名长度不能超过 255 个字符' } }
          : { status: 200, body: {} },
    });
    const signature = await screen.findByLabelText('个性签名');
    await userEvent.type(signature, '热爱阅读');
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(session.value.user?.signature).toBe('热爱阅读'));
    const body = JSON.parse(String(requestsTo(fetchMock, '/api/v1/user/profile')[0]?.[1]?.body)) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ id: 2, signature: '热爱阅读', avatar: '/uploads/a.png', email: 'amy@example.com' });
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() =>
      expect(
        toasts.value.some((t) => t.title === '修改失败' && t.description === '个性签名长度不能超过 255 个字符'),
      ).toBe(true),
    );
  });

  it('keeps what the member typed when the session expired: signs in again over the screen, then saves', async () => {
    let expired = true;
    const { router, fetchMock } = renderProfile({
      'PUT /api/v1/user/profile': () =>
        expired
          ? { status: 401, body: { code: 16, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' } }
          : { status: 200, body: {} },
      'POST /api/v1/user/login': () => {
        expired = false;
        return { status: 200, body: { user: member } };
      },
      'GET /api/v1/user/permission': permissionOk,
    });
    await userEvent.type(await screen.findByLabelText('个性签名'), '热爱阅读');
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    expect(router.state.location.pathname).toBe('/member/profile');
    // The member's name is known: only the password is asked again.
    expect((within(dialog).getByLabelText('用户名') as HTMLInputElement).value).toBe('amy');
    await userEvent.type(within(dialog).getByLabelText('密码'), 'secret123');
    await userEvent.click(within(dialog).getByRole('button', { name: '登录' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '登录已失效' })).toBeNull());
    expect(router.state.location.pathname).toBe('/member/profile');
    expect((screen.getByLabelText('个性签名') as HTMLInputElement).value).toBe('热爱阅读');
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '修改成功')).toBe(true));
    expect(requestsTo(fetchMock, '/api/v1/user/profile')).toHaveLength(2);
  });

  const refusedSave = (ended?: string) => ({
    'PUT /api/v1/user/profile': {
      status: 401,
      body: { code: 16, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' },
      ...(ended ? { headers: { 'x-session-end': ended } } : {}),
    },
  });

  it.each([
    ['expired', '登录已过期，请重新登录。'],
    ['password-changed', '您的密码已在其他地方修改，请重新登录。'],
    ['logged-out', '您已退出登录，请重新登录。'],
    // No token went with the call: the browser dropped the cookie when its token expired.
    [undefined, '登录已过期，请重新登录。'],
  ])('says why the session ended (%s) over the screen, and asks to sign in again', async (ended, words) => {
    renderProfile(refusedSave(ended));
    await userEvent.click(await screen.findByRole('button', { name: '保存资料' }));
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    expect(within(dialog).getByText(`${words}本页已填写的内容仍然保留，登录后再提交一次即可。`)).toBeTruthy();
    expect(within(dialog).getByLabelText('密码')).toBeTruthy();
  });

  it('tells a member whose account was deleted so, with no login form, and leaves for the login page saying it', async () => {
    const { router } = renderProfile(refusedSave('account-removed'));
    await userEvent.click(await screen.findByRole('button', { name: '保存资料' }));
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    expect(within(dialog).getByText('您的账号已被删除，如有疑问请联系网站管理员。')).toBeTruthy();
    expect(within(dialog).queryByLabelText('密码')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(await screen.findByText('您的账号已被删除，如有疑问请联系网站管理员')).toBeTruthy();
    expect(session.value.loggedIn).toBe(false);
  });

  it('keeps the reason of the first refusal: the calls after it carry no cookie to tell of', async () => {
    let refusals = 0;
    renderProfile({
      'PUT /api/v1/user/profile': () => ({
        status: 401,
        body: { code: 16, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' },
        ...(refusals++ === 0 ? { headers: { 'x-session-end': 'password-changed' } } : {}),
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '保存资料' }));
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(refusals).toBe(2));
    expect(within(dialog).getByText(/^您的密码已在其他地方修改，请重新登录。/)).toBeTruthy();
  });

  it('shows no 修改失败 beside the sign-in-again dialog: its advice to refresh would lose what was typed', async () => {
    renderProfile({
      'PUT /api/v1/user/profile': {
        status: 401,
        body: { code: 16, message: '您未登录或您的登录已过期，请重新登录或刷新页面重试' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '保存资料' }));
    await screen.findByRole('dialog', { name: '登录已失效' });
    // The save is over (its button no longer busy): a toast it made would be there now.
    await waitFor(() => expect(screen.getByRole('button', { name: '保存资料' }).className).not.toMatch(/loading/));
    expect(toasts.value.map((t) => t.title)).toEqual([]);
  });

  it("asks to sign in again, not 加载失败 ID错误, when the server answers the member's account as to a visitor", async () => {
    // MOREDOC's GetUser answers 400 ID错误 to a caller without a session (signed out in another tab, revoked).
    let signedIn = false;
    renderProfile({
      'GET /api/v1/user': () =>
        signedIn ? { status: 200, body: member } : { status: 400, body: { code: 3, message: 'ID错误' } },
      'POST /api/v1/user/login': () => {
        signedIn = true;
        return { status: 200, body: { user: member } };
      },
      'GET /api/v1/user/permission': permissionOk,
    });
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    await userEvent.type(within(dialog).getByLabelText('密码'), 'secret123');
    await userEvent.click(within(dialog).getByRole('button', { name: '登录' }));
    expect(await screen.findByRole('button', { name: '保存资料' })).toBeTruthy();
    expect(screen.queryByText('ID错误')).toBeNull();
  });

  it('leaves for the login page, with the way back and why, when the member closes the sign-in-again dialog', async () => {
    const { router } = renderProfile({
      'PUT /api/v1/user/profile': {
        status: 401,
        body: { code: 16, message: '您未登录或您的登录已过期' },
        headers: { 'x-session-end': 'password-changed' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '保存资料' }));
    const dialog = await screen.findByRole('dialog', { name: '登录已失效' });
    await userEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(
        '/auth/login?redirect=%2Fmember%2Fprofile',
      ),
    );
    expect(session.value.loggedIn).toBe(false);
    // The login page says why it opened.
    expect(await screen.findByText('您的密码已在其他地方修改，请重新登录')).toBeTruthy();
  });

  it('opens with the password form in view and its first field focused when led to #password', async () => {
    const scrolled: Element[] = [];
    // A spy, restored afterwards: the web project's files share one window.
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    try {
      renderApp('/member/profile#password', {
        user: member,
        backend: { 'GET /api/v1/user': { status: 200, body: member } },
      });
      const old = await screen.findByLabelText('原密码');
      await waitFor(() => expect(document.activeElement).toBe(old));
      expect(scrolled).toEqual([screen.getByRole('form', { name: '修改密码' })]);
    } finally {
      scrollIntoView.mockRestore();
    }
  });

  it('takes 修改失败 away once the profile or the password is saved', async () => {
    let fail = true;
    renderProfile({
      'PUT /api/v1/user/profile': () =>
        fail ? { status: 500, body: { code: 13, message: '服务器繁忙' } } : { status: 200, body: {} },
      'PUT /api/v1/user/password': () =>
        fail ? { status: 500, body: { code: 13, message: '服务器繁忙' } } : { status: 200, body: {} },
    });
    // Held open (as under the pointer), so that only the page closes them, not their 5 s.
    const open = (title: string) => {
      for (const t of toasts.value) pauseToast(t.id);
      return toasts.value.filter((t) => t.open && t.title === title).length;
    };
    await userEvent.type(await screen.findByLabelText('个性签名'), '热爱阅读');
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(open('修改失败')).toBe(1));
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(open('修改成功')).toBe(1));
    expect(open('修改失败')).toBe(0);

    fail = true;
    await userEvent.type(screen.getByLabelText('原密码'), 'secret123');
    await userEvent.type(screen.getByLabelText('新密码'), 'newsecret1');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'newsecret1');
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(open('修改失败')).toBe(1));
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(open('修改成功')).toBe(2));
    expect(open('修改失败')).toBe(0);
  });

  it('shows one 修改成功 when the profile is saved twice in a row', async () => {
    let saves = 0;
    renderProfile({
      'PUT /api/v1/user/profile': () => {
        saves += 1;
        return { status: 200, body: {} };
      },
    });
    const open = (title: string) => {
      for (const t of toasts.value) pauseToast(t.id);
      return toasts.value.filter((t) => t.open && t.title === title).length;
    };
    await userEvent.type(await screen.findByLabelText('个性签名'), '热爱阅读');
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(open('修改成功')).toBe(1));
    const first = toasts.value.find((t) => t.title === '修改成功')?.id;
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '修改成功' && t.id !== first)).toBe(true));
    expect(saves).toBe(2);
    expect(open('修改成功')).toBe(1);
  });

  it('shows the fields as saved, without the spaces typed around them', async () => {
    renderProfile({
      'PUT /api/v1/user/profile': { status: 200, body: {} },
    });
    const signature = await screen.findByLabelText('个性签名');
    await userEvent.type(signature, '  热爱阅读  ');
    await userEvent.type(screen.getByLabelText('地址'), ' 北京市 ');
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await waitFor(() => expect(session.value.user?.signature).toBe('热爱阅读'));
    expect((signature as HTMLInputElement).value).toBe('热爱阅读');
    expect((screen.getByLabelText('地址') as HTMLInputElement).value).toBe('北京市');
  });

  it('says an e-mail address another account has under 邮箱, with the keyboard there', async () => {
    renderProfile({
      'PUT /api/v1/user/profile': { status: 409, body: { code: 6, message: '邮箱已存在' } },
    });
    const email = await screen.findByLabelText('邮箱');
    await userEvent.clear(email);
    await userEvent.type(email, 'bob@example.com');
    await userEvent.click(screen.getByRole('button', { name: '保存资料' }));
    await saysUnder(email, '邮箱已存在');
  });

  it('says a wrong old password under 原密码, with the keyboard there, keeping the new one typed', async () => {
    renderProfile({
      'PUT /api/v1/user/password': { status: 400, body: { code: 3, message: '原密码不正确' } },
    });
    const old = await screen.findByLabelText('原密码');
    await userEvent.type(old, 'not-my-password');
    await userEvent.type(screen.getByLabelText('新密码'), 'newsecret1');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'newsecret1');
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await saysUnder(old, '原密码不正确');
    expect((screen.getByLabelText('新密码') as HTMLInputElement).value).toBe('newsecret1');
  });

  it('checks the new password before changing it', async () => {
    const { fetchMock } = renderProfile({
      'PUT /api/v1/user/password': { status: 200, body: {} },
    });
    await userEvent.type(await screen.findByLabelText('原密码'), 'secret123');
    await userEvent.type(screen.getByLabelText('新密码'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(screen.getByText('新密码长度必须在 6 到 128 个字符之间')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('新密码'));
    await userEvent.type(screen.getByLabelText('新密码'), 'newsecret1');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'newsecret1');
    await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(requestsTo(fetchMock, '/api/v1/user/password')).toHaveLength(1));
    await waitFor(() =>
      expect(
        toasts.value.some(
          (t) =>
            t.title === '修改成功' &&
            t.description === '密码已修改，其他设备和浏览器上的登录已退出，需用新密码重新登录',
        ),
      ).toBe(true),
    );
    expect(session.value.loggedIn).toBe(true);
  });
});
