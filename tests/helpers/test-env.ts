// What every backend a test starts is given, alone or behind the gateway: a known admin
// password, and the captchas off (a test of a captcha turns it back on through its env).

export const TEST_ADMIN_PASSWORD = 'admin-test-password';

export const CAPTCHAS_OFF: Readonly<Record<string, string>> = {
  CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
  CONFIG_SECURITY_ENABLE_CAPTCHA_REGISTER: 'false',
  CONFIG_SECURITY_ENABLE_CAPTCHA_FIND_PASSWORD: 'false',
  CONFIG_SECURITY_ENABLE_CAPTCHA_COMMENT: 'false',
  CONFIG_SECURITY_ENABLE_CAPTCHA_FEEDBACK: 'false',
  CONFIG_SECURITY_ENABLE_CAPTCHA_SMS: 'false',
};

/** The backend's sign-in limit off: suites sign in more often than a client may (a test of it sets SIGN_IN_LIMIT). */
export const SIGN_IN_LIMIT_OFF: Readonly<Record<string, string>> = { SIGN_IN_LIMIT: '0' };

/** Every search recorded: suites search more often than a client's are (a test of the limit sets SEARCH_RECORD_LIMIT). */
export const SEARCH_RECORD_LIMIT_OFF: Readonly<Record<string, string>> = { SEARCH_RECORD_LIMIT: '0' };
