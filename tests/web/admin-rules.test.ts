// The pure rules behind the admin screens: form checks, trees, config conversions, grants.
import { describe, expect, it } from 'vitest';
import type { Config } from '../../shared/types/config';
import type { Navigation } from '../../shared/types/navigation';
import type { Permission } from '../../shared/types/permission';
import { configField, fromWire, parseOptions, toWire } from '../../web/src/features/config/config-fields';
import { vipPlansError } from '../../web/src/features/vip/VipPlanEditor';
import type { FieldContext, FieldDef, FormValues } from '../../web/src/kit/admin-resource/resource';
import { buildRowTree, parentOptions } from '../../web/src/kit/admin-resource/tree';
import { checkLink, validateForm } from '../../web/src/kit/admin-resource/validation';
import { grantedIds, permissionTreeData } from '../../web/src/features/group/GroupPermissionSheet';
import { markHiddenByParent } from '../../web/src/features/navigation/navigation-resource';
import { groupByService } from '../../web/src/features/permission/permission-resource';
import { isActive } from '../../web/src/features/punishment/api';
import { imageUploadTarget } from '../../web/src/features/upload/api';

const create = { mode: 'create' as const, rows: [] };

describe('form checks', () => {
  const fields: FieldDef<FormValues>[] = [
    { name: 'title', label: '名称', kind: 'text', required: true, minLength: 2, maxLength: 4 },
    { name: 'kind', label: '类型', kind: 'select', required: true, options: [] },
    { name: 'cover', label: '封面', kind: 'image', upload: imageUploadTarget('banner'), required: true },
    { name: 'sort', label: '排序', kind: 'number', integer: true, max: 10 },
    { name: 'color', label: '颜色', kind: 'color' },
    { name: 'code', label: '代码', kind: 'text', readOnly: (mode) => mode === 'edit', required: true },
    { name: 'note', label: '备注', kind: 'text', modes: ['edit'], required: true },
    { name: 'link', label: '链接', kind: 'text', validate: (v: string) => checkLink(v, '链接') },
  ];

  const check = (values: FormValues, context: FieldContext = create) => validateForm(fields, values, context);

  it('asks for what is required, by kind of input', () => {
    expect(check({ title: ' ', kind: undefined, cover: '', code: '' }, create)).toEqual({
      title: '请输入名称',
      kind: '请选择类型',
      cover: '请上传封面',
      code: '请输入代码',
    });
  });

  it('checks lengths in characters, numbers, colours and custom rules', () => {
    const errors = check(
      { title: '一', kind: 1, cover: '/a.png', code: 'x', sort: 1.5, color: '#123', link: 'ftp://x' },
      create,
    );
    expect(errors).toEqual({
      title: '名称不能少于 2 个字符',
      sort: '排序必须是整数',
      link: '链接必须以 http:// 或 https:// 开头',
    });
    expect(check({ title: '一二三四五', kind: 1, cover: '/a', code: 'x', sort: 11, color: '#A0b1C2' }, create)).toEqual(
      {
        title: '名称不能超过 4 个字符',
        sort: '排序不能大于 10',
      },
    );
    // Only #rgb / #rrggbb: what the colour picker and every browser read alike.
    for (const color of ['#zz', 'red', 'notacolor', 'rgb(1,2,3)', '#12345678']) {
      expect(check({ title: '😀😀', kind: 1, cover: '/a', code: 'x', color }, create), color).toEqual({
        color: '颜色必须是 # 开头的 3 位或 6 位十六进制颜色，例如 #1677ff 或 #f60',
      });
    }
    // An integer without bounds of its own keeps to the wire's int32.
    const order: FieldDef<FormValues> = { name: 'order', label: '排序', kind: 'number', integer: true };
    expect(validateForm<FormValues, unknown>([order], { order: 99_999_999_999 } as FormValues, create)).toEqual({
      order: '排序不能大于 2147483647',
    });
    expect(validateForm<FormValues, unknown>([order], { order: -2_147_483_649 } as FormValues, create)).toEqual({
      order: '排序不能小于 -2147483648',
    });
    expect(validateForm<FormValues, unknown>([order], { order: -5 } as FormValues, create)).toEqual({});
  });

  it('skips read-only fields and fields of the other mode', () => {
    expect(check({ title: '名称', kind: 1, cover: '/a', note: '' }, { mode: 'edit', rows: [] })).toEqual({
      note: '请输入备注',
    });
    expect(check({ title: '名称', kind: 1, cover: '/a', code: 'c' }, create)).toEqual({});
  });

  it('accepts site paths for links only when asked to', () => {
    expect(checkLink('/library', '链接', { sitePath: true })).toBeUndefined();
    expect(checkLink('//evil.example', '链接', { sitePath: true })).toBe('链接必须以 http://、https:// 或 / 开头');
    expect(checkLink('/library', '链接')).toBe('链接必须以 http:// 或 https:// 开头');
    expect(checkLink('https://example.com/a', '链接')).toBeUndefined();
  });
});

describe('trees of nested rows', () => {
  const rows: Navigation[] = [
    { id: 1, title: '首页', parent_id: 0 },
    { id: 2, title: '资料', parent_id: 0 },
    { id: 3, title: '教育', parent_id: 2 },
    { id: 4, title: '小学', parent_id: 3 },
    { id: 5, title: '孤儿', parent_id: 99 },
    { id: 6, title: '环A', parent_id: 7 },
    { id: 7, title: '环B', parent_id: 6 },
  ];

  it('nests rows under their parents and keeps orphans and cycles at the top', () => {
    const tree = buildRowTree(rows);
    expect(tree.map((r) => r.id)).toEqual([1, 2, 5, 6, 7]);
    expect(tree[1]?.children?.[0]?.children?.[0]?.title).toBe('小学');
    expect('children' in (tree[0] ?? {})).toBe(false);
  });

  it('offers every row as a parent except the edited one and its descendants', () => {
    const options = parentOptions(rows.slice(0, 4), (r) => r.title ?? '', 3);
    expect(options[0]).toEqual({ value: 0, label: '顶级（无上级）' });
    const data = options[2];
    expect(data?.disabled).toBe(false);
    expect(data?.children?.[0]).toMatchObject({ value: 3, disabled: true });
    expect(data?.children?.[0]?.children?.[0]).toMatchObject({ value: 4, disabled: true });
  });

  it('marks navigation items hidden by a disabled ancestor', () => {
    const marked = markHiddenByParent([
      { id: 1, title: '父', enable: false },
      { id: 2, title: '子', parent_id: 1, enable: true },
      { id: 3, title: '孙', parent_id: 2, enable: true },
      { id: 4, title: '独立', enable: true },
    ]);
    expect(marked.map((m) => m.hiddenByParent)).toEqual([false, true, true, false]);
  });
});

describe('config rows', () => {
  const row = (input_type: string, value: string, extra: Partial<Config> = {}): Config => ({
    id: 1,
    name: 'k',
    label: '键',
    category: 'system',
    input_type,
    value,
    ...extra,
  });

  it('reads options as value:label lines, bare lines labelled by themselves', () => {
    expect(parseOptions('card:卡片\nlist:列表\n\n.pdf')).toEqual([
      { value: 'card', label: '卡片' },
      { value: 'list', label: '列表' },
      { value: '.pdf', label: '.pdf' },
    ]);
  });

  it('converts stored strings to input values and back', () => {
    expect(fromWire(row('switch', 'True'))).toBe(true);
    expect(fromWire(row('switch', 'nope'))).toBe(false);
    expect(fromWire(row('number', '30'))).toBe(30);
    expect(fromWire(row('number', ''))).toBeUndefined();
    expect(fromWire(row('select-multi', '.pdf, .docx,'))).toEqual(['.pdf', '.docx']);
    expect(fromWire(row('text', 'abc'))).toBe('abc');
    expect(toWire(row('switch', ''), false)).toBe('false');
    expect(toWire(row('number', ''), 12)).toBe('12');
    expect(toWire(row('number', ''), undefined)).toBe('');
    expect(toWire(row('select-multi', ''), ['.pdf', '.txt'])).toBe('.pdf,.txt');
    expect(toWire(row('password', ''), '******')).toBe('******');
  });

  it('checks the keys other code parses, as the backend does', () => {
    const check = (config: Config, value: unknown) =>
      validateForm([configField(config)], { [config.name ?? '']: value }, { mode: 'edit', rows: [] });
    expect(check(row('text', '', { category: 'system', name: 'domain', label: '网站域名' }), 'example.com')).toEqual({
      domain: '网站域名必须是 http:// 或 https:// 开头的网站域名，例如 https://example.com',
    });
    expect(check(row('text', '', { category: 'system', name: 'domain' }), 'https://docs.example.com')).toEqual({});
    expect(check(row('number', '', { category: 'email', name: 'duration', label: '邮件有效期' }), 61)).toEqual({
      duration: '邮件有效期必须在 1 到 60 之间',
    });
    expect(check(row('number', '', { label: '超时' }), -1)).toEqual({ k: '超时不能为负数' });
    expect(check(row('text', '', { category: 'system', name: 'sitename', label: '网站名称' }), ' ')).toEqual({
      sitename: '请输入网站名称',
    });
    expect(check(row('number', '', { label: '超时' }), undefined)).toEqual({ k: '请输入超时' });
    expect(vipPlansError('month|月度会员|30|30|\nyear|年度会员|365|298.5|推荐|1')).toBeUndefined();
    expect(vipPlansError('month|月度会员|30|30\nmonth|再来|1|1')).toBe('第 2 个套餐：套餐代码“month”重复');
    expect(vipPlansError('vip||30|30')).toBe('第 1 个套餐：套餐名称不能为空');
    expect(vipPlansError('vip|会员|0|30')).toBe('第 1 个套餐：天数须为 1 到 36500 的整数');
    expect(vipPlansError('vip|会员|30|3.141')).toBe('第 1 个套餐：价格须在 0.01 到 100000 元之间，最多两位小数');
    const plans = row('textarea', 'month|月度会员|30|30', { category: 'vip', name: 'plans', label: '会员套餐' });
    expect(configField(plans)).toMatchObject({ kind: 'custom' });
    expect(check(plans, 'month|月度会员|30|0')).toEqual({
      plans: '第 1 个套餐：价格须在 0.01 到 100000 元之间，最多两位小数',
    });
  });

  it('picks the input by input_type and the width by col_num', () => {
    expect(configField(row('image', '', { col_num: 12 }))).toMatchObject({
      kind: 'image',
      upload: { kind: 'config' },
      half: true,
    });
    expect(configField(row('select-multi', '', { options: 'a:甲' }))).toMatchObject({ kind: 'select', multiple: true });
    expect(configField(row('textarea', ''))).toMatchObject({ kind: 'textarea', half: false, label: '键' });
    expect(configField(row('number', ''))).toMatchObject({ kind: 'number', integer: true });
    expect(configField(row('weird', ''))).toMatchObject({ kind: 'text' });
  });
});

describe('permissions and grants', () => {
  const permissions: Permission[] = [
    { id: 11, method: 'GRPC', path: '/api.v1.UserAPI/ListUser', title: '查看用户列表' },
    { id: 12, method: 'GRPC', path: '/api.v1.UserAPI/DeleteUser', title: '删除用户' },
    { id: 21, method: 'GRPC', path: '/api.v1.ConfigAPI/ListConfig', title: '获取系统配置列表' },
    { id: 31, method: 'POST', path: '/api/v1/upload/banner', title: '上传轮播图' },
  ];

  it('builds the grant tree by service, the list permission marked', () => {
    const tree = permissionTreeData(permissions);
    expect(tree.map((n) => n.label)).toEqual(['用户管理', '系统设置', '上传管理']);
    expect(tree[0]?.children?.map((c) => [c.value, c.isList])).toEqual([
      ['11', true],
      ['12', false],
    ]);
    // 短信管理 needs one of its own permissions besides the list's (named by title where known).
    expect(tree[0]?.pages).toEqual([
      '用户管理',
      '短信管理（另需“/api.v1.UserAPI/ListSmsLog”或“/api.v1.UserAPI/GetSmsStats”）',
    ]);
    const titled = permissionTreeData([
      ...permissions,
      { id: 13, method: 'GRPC', path: '/api.v1.UserAPI/ListSmsLog', title: '短信发送记录' },
      { id: 14, method: 'GRPC', path: '/api.v1.UserAPI/GetSmsStats', title: '短信发送统计' },
    ]);
    expect(titled[0]?.pages).toEqual(['用户管理', '短信管理（另需“短信发送记录”或“短信发送统计”）']);
    expect(tree[2]?.pages).toEqual([]);
  });

  it('saves only permission ids, once each', () => {
    expect(grantedIds(['service:api.v1.UserAPI', '11', '12', '11', '0', 'x'])).toEqual([11, 12]);
  });

  it('groups the permission list under one heading row per service', () => {
    const grouped = groupByService(permissions);
    expect(grouped.map((g) => [g.id, g.title, g.rows])).toEqual([
      [-1, '用户管理', 2],
      [-2, '系统设置', 1],
      [-3, '上传管理', 1],
    ]);
    expect(grouped[0]?.children?.[1]).toEqual(permissions[1]);
  });
});

describe('punishments', () => {
  it('is active while enabled and before its end time', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(isActive({ enable: true }, now)).toBe(true);
    expect(isActive({ enable: true, end_time: '2025-02-01T00:00:00Z' }, now)).toBe(true);
    expect(isActive({ enable: true, end_time: '2024-12-01T00:00:00Z' }, now)).toBe(false);
    expect(isActive({ enable: false }, now)).toBe(false);
  });
});
