// The wire types are checked by `tsc` (npm run typecheck) when it compiles this file:
// the contract's example payloads must be assignable.
import { describe, expect, it } from 'vitest';
import { allowPagesFrom } from '../../shared/permissions';
import { buildNavigationTree } from '../../shared/navigation';
import type { Category, ListCategoryReply } from '../../shared/types/category';
import type { Settings } from '../../shared/types/config';
import type { ListNavigationReply } from '../../shared/types/navigation';
import type { StartData } from '../../shared/types/start-data';
import type { GetUserPermissionsReply, User } from '../../shared/types/user';

// docs/moredoc.md §10, a fresh install (abbreviated).
const settings = {
  system: {
    domain: 'https://moredoc.mnt.ltd',
    title: 'MOREDOC · 魔豆文库',
    sitename: '魔豆文库',
    copyright_start_year: '2019',
    credit_name: '魔豆',
  },
  footer: { about: '/article/about', contact: '/article/contact' },
  security: { enable_register: true, enable_captcha_login: true, max_document_size: 50 },
  display: { pages_per_read: 5, index_document_style: 'card', home_version: 'v1' },
  language: [{ id: 1, language: '中文（简体）', code: 'zh-CN' }],
} satisfies Settings;

// docs/moredoc.md §11
const permissionReply = {
  permission: [
    {
      id: 1,
      method: 'GRPC',
      path: '/api.v1.UserAPI/ListUser',
      title: '查看用户列表',
      created_at: '2024-05-01T10:00:00+08:00',
      updated_at: '2024-05-01T10:00:00+08:00',
    },
    { id: 11, method: 'POST', path: '/api/v1/upload/banner', title: '上传轮播图' },
  ],
} satisfies GetUserPermissionsReply;

const navigationReply = {
  total: 2,
  navigation: [
    { id: 1, title: '首页', href: '/', target: '_self', sort: 102400, enable: true, fixed: true },
    { id: 2, title: '文库资料', href: '/category', target: '_self', sort: 102300, enable: true, fixed: true },
  ],
} satisfies ListNavigationReply;

const categoryReply = {
  category: [
    { id: 3, title: '教育', enable: true },
    { id: 4, title: '资讯', enable: true, type: 1 },
  ],
} satisfies ListCategoryReply;

describe('wire types', () => {
  it('accept a reply with every zero value omitted', () => {
    const empty: User = {};
    const noPermissions: GetUserPermissionsReply = {};
    expect(allowPagesFrom(noPermissions.permission ?? [])).toEqual([]);
    expect(empty.id).toBeUndefined();
  });

  it('carry the start data the gateway inlines into what the SPA builds from it', () => {
    const start: StartData = {
      settings,
      navigation: navigationReply.navigation,
      categories: categoryReply.category satisfies Category[],
      permissions: permissionReply.permission,
    };
    const parsed = JSON.parse(JSON.stringify(start)) as StartData;
    expect(buildNavigationTree(parsed.navigation).map((n) => n.title)).toEqual(['首页', '文库资料']);
    expect(allowPagesFrom(parsed.permissions ?? [])).toEqual(['/admin/user', '/admin/user/list', '/admin/user/sms']);
    expect(parsed.settings.system?.sitename).toBe('魔豆文库');
  });
});
