import { describe, expect, it } from 'vitest';
import {
  ARTICLE_LIMITS,
  articleIdentifierProblems,
  cleanName,
  nameProblems,
  SMS_CODE_PATTERN,
  emailProblems,
  maskMobile,
  normalizeMainlandMobile,
  passwordProblems,
  reportRemarkProblems,
  textProblems,
  mobileProblems,
  usernameProblems,
} from '../../shared/validation';

describe('username rules', () => {
  it('accepts 3 to 32 characters counted as characters, not UTF-16 units', () => {
    expect(usernameProblems('amy')).toEqual([]);
    expect(usernameProblems('𠮷𠮷𠮷')).toEqual([]);
    expect(usernameProblems('a'.repeat(32))).toEqual([]);
  });

  it('lists every problem of a name', () => {
    expect(usernameProblems('a@')).toEqual([
      '用户名长度必须在 3 到 32 个字符之间',
      '出于隐私保护，用户名不能是邮箱或手机号码',
    ]);
    expect(usernameProblems('a b c')).toEqual(['用户名不能包含空白或控制字符']);
    expect(usernameProblems('13812345678')).toEqual(['出于隐私保护，用户名不能是邮箱或手机号码']);
    // Any spelling a login reads as a mobile number (normalizeMainlandMobile) is one.
    for (const spelled of ['139-0013-9001', '+8613900139000', '8613900139000', '0086-139-0013-9000'])
      expect(usernameProblems(spelled), spelled).toEqual(['出于隐私保护，用户名不能是邮箱或手机号码']);
    expect(usernameProblems('138 0013 8000')).toEqual([
      '用户名不能包含空白或控制字符',
      '出于隐私保护，用户名不能是邮箱或手机号码',
    ]);
    // Digits that are no mainland number stay a name.
    expect(usernameProblems('139-0013-90011')).toEqual([]);
    expect(usernameProblems('12345678901')).toEqual([]);
    expect(usernameProblems('a'.repeat(33))).toEqual(['用户名长度必须在 3 到 32 个字符之间']);
  });
});

describe('names and titles', () => {
  it('drops C0 and C1 controls and the bidi overrides and isolates, turns line breaks into a space and trims', () => {
    expect(cleanName('a\u0000.pdf')).toBe('a.pdf');
    expect(cleanName('a\u0007b\u007f\u0080\u009f.pdf')).toBe('ab.pdf');
    expect(cleanName('doc\u202efdp.exe.pdf')).toBe('docfdp.exe.pdf');
    expect(cleanName('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069年度报告')).toBe('年度报告');
    expect(cleanName(' 第一\t第二\r\n第三\u0085第四\u2028第五 ')).toBe('第一 第二 第三 第四 第五');
    // Other invisible characters are letters of some script or joiners: they stay.
    expect(cleanName('👨\u200d👩 \u200e')).toBe('👨\u200d👩 \u200e');
  });

  it('refuses a name that cleaning leaves empty, and counts the length of what is stored', () => {
    expect(nameProblems('  ', '文档标题', 10)).toEqual(['文档标题不能为空']);
    expect(nameProblems('\u202e\u0000', '文档标题', 10)).toEqual(['文档标题不能只包含控制字符或文字方向符号']);
    // Optional: empty or blank passes, but what cleaning leaves empty is refused all the same.
    expect(nameProblems('', '广告标题', 10, false)).toEqual([]);
    expect(nameProblems(' \t ', '广告标题', 10, false)).toEqual([]);
    expect(nameProblems('\u202e', '广告标题', 10, false)).toEqual(['广告标题不能只包含控制字符或文字方向符号']);
    expect(nameProblems('\u202e\u2066', '真实姓名', 64, false)).toEqual(['真实姓名不能只包含控制字符或文字方向符号']);
    expect(nameProblems(`${'字'.repeat(10)}\u202e`, '文档标题', 10)).toEqual([]);
    expect(nameProblems('字'.repeat(11), '文档标题', 10)).toEqual(['文档标题长度不能超过 10 个字符']);
  });
});

describe('password, e-mail and phone rules', () => {
  it('bounds passwords to 6–128 characters and names the field', () => {
    expect(passwordProblems('123456')).toEqual([]);
    expect(passwordProblems('12345')).toEqual(['密码长度必须在 6 到 128 个字符之间']);
    expect(passwordProblems('x'.repeat(129), '新密码')).toEqual(['新密码长度必须在 6 到 128 个字符之间']);
  });

  it('checks e-mail addresses, required or not', () => {
    expect(emailProblems('', false)).toEqual([]);
    expect(emailProblems('', true)).toEqual(['邮箱不能为空']);
    expect(emailProblems('amy@example.com', true)).toEqual([]);
    expect(emailProblems('a@b', false)).toEqual(['邮箱格式不正确']);
    expect(emailProblems(`${'a'.repeat(120)}@example.com`, false)).toEqual(['邮箱格式不正确']);
  });

  it('checks contact phones loosely', () => {
    expect(mobileProblems('', false)).toEqual([]);
    expect(mobileProblems(' ', true)).toEqual(['请输入手机号码']);
    expect(mobileProblems('+86 138-1234-5678', true)).toEqual([]);
    expect(mobileProblems('abc', false)).toEqual(['请输入正确的中国大陆手机号码']);
    expect(mobileProblems('010-12345678', true)).toEqual(['请输入正确的中国大陆手机号码']);
  });
});

describe('normalizeMainlandMobile', () => {
  it.each([
    ['13812345678', '13812345678'],
    [' 138 1234 5678 ', '13812345678'],
    ['+86 138-1234-5678', '13812345678'],
    ['008613812345678', '13812345678'],
    ['8613812345678', '13812345678'],
  ])('%j → %s', (input, normalised) => {
    expect(normalizeMainlandMobile(input)).toBe(normalised);
  });

  it.each(['12812345678', '1381234567', '138123456789', '+1 415 555 0100', '', 'abc'])('refuses %j', (input) => {
    expect(normalizeMainlandMobile(input)).toBeNull();
  });
});

describe('text lengths', () => {
  it('names the field and the limit, counting characters', () => {
    expect(textProblems('', '评论内容', 5, true)).toEqual(['评论内容不能为空']);
    expect(textProblems('  ', '评论内容', 5, true)).toEqual(['评论内容不能为空']);
    expect(reportRemarkProblems('', 7)).toEqual(['侵权举报请在补充说明中写明权利人、权属证明和联系方式']);
    expect(reportRemarkProblems('', 1)).toEqual([]);
    expect(reportRemarkProblems('我是作者', 7)).toEqual([]);
    expect(reportRemarkProblems('长'.repeat(501), 1)).toEqual(['举报说明长度不能超过 500 个字符']);
    expect(textProblems('', '联系方式', 5)).toEqual([]);
    expect(textProblems('𠮷𠮷𠮷𠮷𠮷', '评论内容', 5, true)).toEqual([]);
    expect(textProblems('六个字的内容', '评论内容', 5)).toEqual(['评论内容长度不能超过 5 个字符']);
  });
});

describe('article identifiers', () => {
  it('accepts slugs and the empty value (the server makes one up)', () => {
    for (const ok of ['', 'about', 'vip-rules', 'a_1', 'x'.repeat(ARTICLE_LIMITS.identifier)])
      expect(articleIdentifierProblems(ok), ok).toEqual([]);
  });

  it('refuses other characters, a leading dash, over-long ones and all digits', () => {
    for (const bad of ['a b', '-a', '关于', 'a/b', 'x'.repeat(ARTICLE_LIMITS.identifier + 1)])
      expect(articleIdentifierProblems(bad), bad).toHaveLength(1);
    expect(articleIdentifierProblems('2024')).toEqual(['文章标识不能是纯数字']);
  });
});

describe('maskMobile', () => {
  it('keeps the first three and last four digits of a number', () => {
    expect(maskMobile('13812340000')).toBe('138****0000');
  });

  it('hides short values whole', () => {
    expect(maskMobile('1381234')).toBe('****');
    expect(maskMobile('')).toBe('****');
  });
});

describe('SMS_CODE_PATTERN', () => {
  it('accepts exactly six digits', () => {
    expect(SMS_CODE_PATTERN.test('012345')).toBe(true);
    for (const code of ['12345', '1234567', '12345a', ' 123456']) expect(SMS_CODE_PATTERN.test(code)).toBe(false);
  });
});
