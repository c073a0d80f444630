import { describe, expect, it } from 'vitest';
import { ALWAYS_ALLOWED_ADMIN_PAGES } from '../../shared/access';
import {
  allowPagesFrom,
  isAdmin,
  offeredAdminPages,
  permissionGroupKey,
  permissionGroups,
  permissionsToTree,
  UPLOAD_GROUP_KEY,
  grpcPermissionPath,
  uploadPermissionPath,
} from '../../shared/permissions';
import { adminRoutes, buildAdminMenu } from '../../shared/routes';
import type { Permission } from '../../shared/types/permission';

// Rows as a fresh MOREDOC database has them (docs/moredoc.md §11), plus ours.
const listUser: Permission = { id: 1, method: 'GRPC', path: '/api.v1.UserAPI/ListUser', title: '查看用户列表' };
const createGroup: Permission = { id: 2, method: 'GRPC', path: '/api.v1.GroupAPI/CreateGroup', title: '创建用户组' };
const uploadBanner: Permission = { id: 11, method: 'POST', path: '/api/v1/upload/banner', title: '上传轮播图' };
const listGroup: Permission = { id: 20, method: 'GRPC', path: '/api.v1.GroupAPI/ListGroup', title: '获取用户组列表' };
const addUser: Permission = { id: 28, method: 'GRPC', path: '/api.v1.UserAPI/AddUser', title: '新增用户' };
const listConfig: Permission = {
  id: 26,
  method: 'GRPC',
  path: '/api.v1.ConfigAPI/ListConfig',
  title: '获取系统配置列表',
};
const listNavigation: Permission = {
  id: 70,
  method: 'GRPC',
  path: '/api.v1.NavigationAPI/ListNavigation',
  title: '查看导航列表',
};

describe('permission groups', () => {
  it('cover the groups of docs/product.md §3, NavigationAPI, AdvertisementAPI and the upload group', () => {
    const services = [
      'DocumentAPI',
      'RecycleAPI',
      'SearchRecordAPI',
      'LanguageAPI',
      'CategoryAPI',
      'UserAPI',
      'UserVipAPI',
      'OrderAPI',
      'FriendlinkAPI',
      'AttachmentAPI',
      'ReportAPI',
      'FeedbackAPI',
      'BannerAPI',
      'GroupAPI',
      'PermissionAPI',
      'ConfigAPI',
      'ArticleAPI',
      'CommentAPI',
      'PunishmentAPI',
      'NavigationAPI',
      'AdvertisementAPI',
    ].map((s) => `api.v1.${s}`);
    expect(permissionGroups.map((g) => g.key).sort()).toEqual([...services, UPLOAD_GROUP_KEY].sort());
    for (const g of permissionGroups) expect(g.label, g.key).toMatch(/[\u4e00-\u9fff]/);
  });

  it('unlock every admin route of the route table, or the route is always allowed', () => {
    const unlocked = new Set(permissionGroups.flatMap((g) => g.pages));
    const locked = adminRoutes.filter((r) => !unlocked.has(r.path) && !ALWAYS_ALLOWED_ADMIN_PAGES.includes(r.path));
    expect(locked.map((r) => r.path)).toEqual([]);
  });

  it('unlock only admin pages', () => {
    for (const page of permissionGroups.flatMap((g) => g.pages)) expect(page).toMatch(/^\/admin\//);
  });
});

describe('permission tree labels', () => {
  it('name the punishment and industry groups as the admin menu does', () => {
    const menuLabel = (path: string) => adminRoutes.find((r) => r.path === path)?.title;
    const groupLabel = (key: string) => permissionGroups.find((g) => g.key === key)?.label;
    expect(groupLabel('api.v1.PunishmentAPI')).toBe(menuLabel('/admin/user/punishment'));
    expect(groupLabel('api.v1.LanguageAPI')).toBe(menuLabel('/admin/document/language'));
    expect(groupLabel('api.v1.LanguageAPI')).toBe('行业管理');
    expect(groupLabel('api.v1.PunishmentAPI')).toBe('处罚管理');
  });
});

describe('permission paths', () => {
  it('are built the way the backend seeds them', () => {
    expect(grpcPermissionPath('UserAPI', 'AddUser')).toBe('/api.v1.UserAPI/AddUser');
    expect(uploadPermissionPath('banner')).toBe('/api/v1/upload/banner');
  });
});

describe('permissionGroupKey', () => {
  it('takes the service of a gRPC row and the route kind of an upload row', () => {
    expect(permissionGroupKey(listUser)).toEqual({ key: 'api.v1.UserAPI', leaf: 'ListUser' });
    expect(permissionGroupKey(uploadBanner)).toEqual({ key: 'upload', leaf: 'banner' });
    expect(permissionGroupKey({ method: 'grpc', path: '/api.v1.BannerAPI/ListBanner' })).toEqual({
      key: 'api.v1.BannerAPI',
      leaf: 'ListBanner',
    });
    expect(permissionGroupKey({ path: '/api.v1.BannerAPI/ListBanner' })).toEqual({
      key: 'api.v1.BannerAPI',
      leaf: 'ListBanner',
    });
    expect(permissionGroupKey({ method: 'POST', path: '/api/v1' })).toBeUndefined();
    expect(permissionGroupKey({})).toBeUndefined();
  });
});

describe('permissionsToTree', () => {
  it('groups rows by service; the node id is the id of the list permission', () => {
    const tree = permissionsToTree([addUser, uploadBanner, listUser, createGroup]);
    expect(tree).toEqual([
      {
        id: 1,
        key: 'api.v1.UserAPI',
        label: '用户管理',
        pages: ['/admin/user', '/admin/user/list', '/admin/user/sms'],
        children: [
          { id: 28, label: '新增用户', path: '/api.v1.UserAPI/AddUser', method: 'GRPC' },
          { id: 1, label: '查看用户列表', path: '/api.v1.UserAPI/ListUser', method: 'GRPC' },
        ],
      },
      {
        id: 0,
        key: 'api.v1.GroupAPI',
        label: '角色管理',
        pages: ['/admin/user', '/admin/user/group'],
        children: [{ id: 2, label: '创建用户组', path: '/api.v1.GroupAPI/CreateGroup', method: 'GRPC' }],
      },
      {
        id: 0,
        key: 'upload',
        label: '上传管理',
        pages: [],
        children: [{ id: 11, label: '上传轮播图', path: '/api/v1/upload/banner', method: 'POST' }],
      },
    ]);
  });

  it('gives unknown services a node labelled with its key, and untitled rows their path', () => {
    const tree = permissionsToTree([
      { id: 200, method: 'GRPC', path: '/api.v1.FooAPI/ListFoo' },
      { method: 'GRPC', path: 'broken' },
    ]);
    expect(tree).toEqual([
      {
        id: 0,
        key: 'api.v1.FooAPI',
        label: 'api.v1.FooAPI',
        pages: [],
        children: [{ id: 200, label: '/api.v1.FooAPI/ListFoo', path: '/api.v1.FooAPI/ListFoo', method: 'GRPC' }],
      },
    ]);
  });

  it('returns an empty tree for a member without permissions', () => {
    expect(permissionsToTree([])).toEqual([]);
  });
});

describe('allowPagesFrom and isAdmin', () => {
  it('unlock the pages of the groups whose list permission is held, once each', () => {
    expect(allowPagesFrom([listUser, addUser, listGroup])).toEqual([
      '/admin/user',
      '/admin/user/list',
      '/admin/user/sms',
      '/admin/user/group',
    ]);
    expect(allowPagesFrom([listConfig])).toContain('/admin/config/oauth');
  });

  it('unlock nothing for permissions other than the list one, nor for uploads', () => {
    expect(allowPagesFrom([addUser, createGroup, uploadBanner])).toEqual([]);
  });

  it('make a user an admin when any allowed page is an admin page', () => {
    expect(isAdmin(allowPagesFrom([listUser]))).toBe(true);
    expect(isAdmin(allowPagesFrom([addUser, uploadBanner]))).toBe(false);
    expect(isAdmin([])).toBe(false);
    expect(isAdmin(['/member'])).toBe(false);
  });

  it('give a role holding only the user-list permission exactly the user-management and SMS menu entries', () => {
    const menu = buildAdminMenu(allowPagesFrom([listUser]));
    expect(menu).toEqual([
      {
        key: 'user',
        label: '用户管理',
        children: [
          { key: 'admin-user-list', label: '用户管理', path: '/admin/user/list' },
          { key: 'admin-user-sms', label: '短信管理', path: '/admin/user/sms' },
        ],
      },
    ]);
  });

  it('offer 短信管理 only with its log or its counters, and every other allowed page as it is', () => {
    const pages = allowPagesFrom([listUser]);
    expect(offeredAdminPages(pages, () => false)).toEqual(['/admin/user', '/admin/user/list']);
    const holds = (path: string) => path === grpcPermissionPath('UserAPI', 'GetSmsStats');
    expect(offeredAdminPages(pages, holds)).toEqual(pages);
  });

  it('show the navigation entry to holders of the navigation list permission', () => {
    expect(buildAdminMenu(allowPagesFrom([listNavigation])).map((e) => e.path)).toEqual(['/admin/navigation']);
  });
});
