import { describe, expect, it } from 'vitest';
import {
  checkConfirmation,
  checkEmail,
  checkLoginName,
  checkMobile,
  checkSmsCode,
  checkPassword,
  checkUsername,
} from '../../web/src/features/user/validation';
import { collectErrors } from '../../web/src/kit/forms/checks';
import { adminNavItems } from '../../web/src/layouts/AdminLayout';

describe('form checks (Chinese messages, before sending)', () => {
  it.each([
    ['', '请输入用户名'],
    ['ab', '用户名长度必须在 3 到 32 个字符之间'],
    ['a'.repeat(33), '用户名长度必须在 3 到 32 个字符之间'],
    ['amy@example.com', '出于隐私保护，用户名不能是邮箱或手机号码'],
    ['13812345678', '出于隐私保护，用户名不能是邮箱或手机号码'],
    ['文库用户', undefined],
    ['amy', undefined],
  ])('username %j → %s', (value, message) => {
    expect(checkUsername(value)).toBe(message);
  });

  it('counts characters, not UTF-16 units, and lets login use any existing name', () => {
    expect(checkUsername('𠮷𠮷𠮷')).toBeUndefined();
    expect(checkLoginName('13812345678')).toBeUndefined();
    expect(checkLoginName(' Reader.Zhang@Example.com ')).toBeUndefined();
    expect(checkLoginName('reader@')).toBe('邮箱格式不正确');
    expect(checkLoginName(' ')).toBe('请输入用户名、邮箱或手机号');
  });

  it('checks passwords, confirmation, e-mail and mobile', () => {
    expect(checkPassword('')).toBe('请输入密码');
    expect(checkPassword('12345', '新密码')).toBe('新密码长度必须在 6 到 128 个字符之间');
    expect(checkPassword('123456')).toBeUndefined();
    expect(checkConfirmation('secret1', '')).toBe('请再次输入密码');
    expect(checkConfirmation('secret1', 'secret2')).toBe('两次输入的密码不一致');
    expect(checkEmail('')).toBe('请输入邮箱');
    expect(checkEmail('', false)).toBeUndefined();
    expect(checkEmail('a@b')).toBe('邮箱格式不正确');
    expect(checkEmail('a@b.cn')).toBeUndefined();
    expect(checkMobile('abc')).toBe('请输入正确的中国大陆手机号码');
    expect(checkMobile('+86 138 1234 5678')).toBeUndefined();
    expect(checkMobile('')).toBeUndefined();
    expect(checkMobile('', true)).toBe('请输入手机号码');
    expect(checkSmsCode('')).toBe('请输入短信验证码');
    expect(checkSmsCode('12345')).toBe('请输入 6 位数字短信验证码');
    expect(checkSmsCode(' 012345 ')).toBeUndefined();
    expect(checkLoginName('13812345678')).toBeUndefined();
  });

  it('collects only the failed checks', () => {
    expect(collectErrors({ a: undefined, b: '错误' })).toEqual({ b: '错误' });
    expect(collectErrors({ a: undefined })).toBeNull();
  });
});

describe('admin sider menu', () => {
  it('always starts with 控制面板 and shows only the groups of allowPages', () => {
    const items = adminNavItems(['/admin/user/list', '/admin/config/system']);
    expect(items.map((i) => i.text)).toEqual(['控制面板', '用户管理', '系统设置']);
    expect(items[1]?.items?.map((i) => i.itemKey)).toEqual(['/admin/user/list']);
  });

  it('is just 控制面板 for a user without admin pages', () => {
    expect(adminNavItems([]).map((i) => i.itemKey)).toEqual(['/admin/dashboard']);
  });
});
