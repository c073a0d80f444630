// The writing rules of the product's Chinese (docs/decisions/068-ui-text-one-spelling.md), checked
// on every Chinese string of the sources so that a form they replaced cannot come back.
import { describe, expect, it } from 'vitest';
import { chineseStrings, chineseStringsOf, type UiString } from '../helpers/ui-strings';

const HAN = String.raw`\p{Script=Han}`;
const FULL_WIDTH = '，。：；！？、（）“”《》';

/** A rule: what it forbids, and the form to write instead. */
const RULES: readonly { wrong: RegExp; write: string }[] = [
  { wrong: /登陆/u, write: '登录' },
  { wrong: /帐号|帐户/u, write: '账号' },
  // 账户 is a bank's or a payment provider's account (收款账户), never a member's
  { wrong: /(?<!收款)账户/u, write: '账号' },
  { wrong: /注销/u, write: '退出登录 (signing out) or 删除 (an account removed)' },
  { wrong: /上载/u, write: '上传' },
  { wrong: /收藏夹/u, write: '我的收藏' },
  { wrong: /[「」]/u, write: '“” (and 《》 for a title where MOREDOC writes one)' },
  { wrong: /\.\.\.|……/u, write: '…' },
  { wrong: /稍后重试/u, write: '稍后再试' },
  { wrong: /永久删除/u, write: '彻底删除' },
  { wrong: /加载中…/u, write: '正在加载…' },
  { wrong: /确认取消/u, write: '确定取消' },
  // a half-width , : ; ! ? ( ) touching a Chinese character (a "key:标签" option line aside)
  {
    wrong: new RegExp(String.raw`${HAN}[,:;!?()]|[,;!?()]${HAN}|(?<![A-Za-z0-9_-]):${HAN}`, 'u'),
    write: `${FULL_WIDTH.slice(0, 6)}（）`,
  },
  { wrong: new RegExp(`[${FULL_WIDTH}] | [${FULL_WIDTH}]`, 'u'), write: 'no space beside full-width punctuation' },
  {
    wrong: new RegExp(String.raw`${HAN}[A-Za-z0-9]|[A-Za-z0-9]${HAN}`, 'u'),
    write: 'a space between Chinese and Latin letters or digits',
  },
];

/**
 * MOREDOC's own texts, as its server writes them (its messages, config labels and permission
 * titles): a site shows them alike on either backend, and clients and tests of the contract
 * compare them (docs/moredoc.md §5, §10, §11).
 */
const MOREDOC_TEXTS = new Set([
  'ID错误',
  '广告id不能为空',
  '根据ID查询用户',
  '根据ID查询附件',
  '根据ID查询轮播图',
  '根据ID查询文档分类',
  '根据ID查询友链',
  '根据ID查询权限',
  '根据ID查询文档',
  '网站Logo',
  '网站Favicon',
  '是否启用GZIP压缩',
  '是否启用SVGO',
  '允许每个IP每天下载次数',
  '是否启用TLS',
  '最大文档大小(MB)',
  '转换超时(分钟)',
  '下载链接有效时长(秒)',
  '更新站点地图sitemap',
  '只有用户ID为1的用户才有权限执行此操作！',
  'hash值必须32位',
  '文档文件参数attachment_id不正确',
  '文档ID不能为空',
  '文档ID和分类ID均不能为空',
  '语言ID不能为空',
  '参数错误:文章标识为空',
  '密码长度不能小于6位',
  '您的账户已被禁止下载文档',
  'APP轮播图',
  'v1:V1版\nv2:V2版',
]);

/** Strings that are no text a user reads: old defaults the config seed recognises and replaces. */
const NOT_TEXT: readonly { file: string; text: string }[] = [
  { file: 'backend/modules/config/keys.ts', text: 'VIP会员' },
  { file: 'backend/modules/config/keys.ts', text: '开通VIP会员，畅享全站文档免费下载' },
];

function broken(text: string): string[] {
  return RULES.filter((rule) => rule.wrong.test(text)).map((rule) => `${rule.wrong.source} → ${rule.write}`);
}

const where = (s: UiString) => `${s.file}:${s.line} ${JSON.stringify(s.text)}`;

describe('the Chinese of the interface', () => {
  it('tells each wrong form from the right one', () => {
    const wrong = [
      '请先登陆',
      '帐号已存在',
      '您的账户已被禁用',
      '已注销用户',
      '点击「收藏」',
      '加载中...',
      '请稍后重试',
      '确认取消',
      '价格(元)',
      '格式:PDF',
      '保存成功, 请刷新',
      '已保存。 请刷新',
      '开通VIP',
      '请输入6位数字',
    ];
    const right = [
      '请先登录',
      '账号已存在',
      '收款账户、户名',
      '点击“收藏”',
      '正在加载…',
      '请稍后再试',
      '确定取消',
      '价格（元）',
      '格式：PDF',
      '开通 VIP',
      '请输入 6 位数字',
      'all:所有访客\nvip:VIP 会员',
    ];
    expect(wrong.filter((text) => broken(text).length === 0)).toEqual([]);
    expect(right.filter((text) => broken(text).length > 0)).toEqual([]);
  });

  it('reads JSX text as it is shown: a line break inside Chinese becomes a space', () => {
    const source = 'export const A = () => (\n  <p>\n    第一行，\n    第二行。{x}\n  </p>\n);\n';
    expect(chineseStringsOf('a.tsx', source).map((s) => s.text)).toEqual(['第一行， 第二行。']);
    expect(broken('第一行， 第二行。')).toHaveLength(1);
  });

  it('follows the rules in every string of the SPA, the gateway, the backend and shared', () => {
    const strings = chineseStrings(process.cwd(), ['web/src', 'gateway', 'backend', 'shared']);
    expect(strings.length).toBeGreaterThan(3000);
    const offending = strings
      .filter((s) => !MOREDOC_TEXTS.has(s.text) && !NOT_TEXT.some((old) => old.file === s.file && old.text === s.text))
      .flatMap((s) => broken(s.text).map((rule) => `${where(s)}: ${rule}`));
    expect(offending).toEqual([]);
  });
});
