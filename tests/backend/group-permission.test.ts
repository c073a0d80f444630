import { describe, expect, it } from 'vitest';
import { api, registerMember, useBackend } from '../helpers/backend';

// GroupAPI and PermissionAPI.

const backend = useBackend();
const { admin } = backend;

describe('seeded groups', () => {
  it('has the super administrators and the default member group', async () => {
    const res = await api(backend.url, 'GET', '/api/v1/group/list');
    expect(res.body.total).toBe(2);
    expect(res.body.group[0]).toMatchObject({
      id: 1,
      title: '超级管理员',
      is_display: true,
      enable_upload: true,
      enable_comment: true,
      enable_article: true,
      user_count: 1,
    });
    expect(res.body.group[0].is_default).toBeUndefined();
    expect(res.body.group[1]).toMatchObject({
      id: 2,
      title: '普通用户',
      is_default: true,
      enable_upload: true,
      enable_document_review: true,
      enable_comment_approval: true,
      enable_article: true,
      enable_article_approval: true,
    });
  });
});

describe('CreateGroup / UpdateGroup / GetGroup', () => {
  it('creates a group with its flags and returns it', async () => {
    const res = await admin('POST', '/api/v1/group', {
      body: {
        title: '作者',
        color: '#409EFF',
        sort: 10,
        is_display: true,
        enable_upload: true,
        description: '可以上传',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      title: '作者',
      color: '#409EFF',
      sort: 10,
      is_display: true,
      enable_upload: true,
    });
    expect(res.body.created_at).toMatch(/Z$/);
    const got = await api(backend.url, 'GET', '/api/v1/group', { query: { id: res.body.id } });
    expect(got.body).toEqual(res.body);
  });

  it('moves the default flag and always keeps one default group', async () => {
    const created = await admin('POST', '/api/v1/group', { body: { title: '新默认组', is_default: true } });
    expect((await api(backend.url, 'GET', '/api/v1/group', { query: { id: 2 } })).body.is_default).toBeUndefined();
    const noDefault = await admin('PUT', '/api/v1/group', {
      body: { id: created.body.id, title: '新默认组', is_default: false },
    });
    expect(noDefault.status).toBe(400);
    expect(noDefault.body.message).toBe('至少要有一个默认用户组');
    expect(
      (
        await admin('PUT', '/api/v1/group', {
          body: { id: 2, title: '普通用户', is_default: true, enable_comment: true, enable_article: true },
        })
      ).status,
    ).toBe(200);
    const member = await registerMember(backend.url);
    const groups = await api(backend.url, 'GET', '/api/v1/user/group', { token: member.token });
    expect(groups.body.group[0].id).toBe(2);
  });

  it('replaces every column on update', async () => {
    const created = await admin('POST', '/api/v1/group', {
      body: { title: '临时', color: 'red', enable_upload: true },
    });
    await admin('PUT', '/api/v1/group', { body: { id: created.body.id, title: '临时2' } });
    const got = await api(backend.url, 'GET', '/api/v1/group', { query: { id: created.body.id } });
    expect(got.body).toMatchObject({ title: '临时2' });
    expect(got.body.color).toBeUndefined();
    expect(got.body.enable_upload).toBeUndefined();
  });

  it.each([
    ['POST', { title: '' }, 400, '用户组名称不能为空'],
    ['POST', { title: '超级管理员' }, 409, '分组名称已存在'],
    ['POST', { title: 'x'.repeat(65) }, 400, '用户组名称长度不能超过 64 个字符'],
    ['PUT', { title: '无ID' }, 400, '请选择用户组（参数 id）'],
    ['PUT', { id: 9999, title: '不存在' }, 404, '用户组不存在'],
    ['PUT', { id: 2, title: '超级管理员', is_default: true }, 409, '分组名称已存在'],
  ])('%s /api/v1/group %j → %i', async (method, body, status, message) => {
    const res = await admin(method, '/api/v1/group', { body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('answers {} for an unknown group id', async () => {
    expect((await api(backend.url, 'GET', '/api/v1/group', { query: { id: 4242 } })).body).toEqual({});
  });
});

describe('DeleteGroup', () => {
  it('deletes empty non-default groups, refuses the others entirely', async () => {
    const empty = await admin('POST', '/api/v1/group', { body: { title: '空组' } });
    const blocked = await admin('DELETE', '/api/v1/group', { query: { id: [empty.body.id, 1] } });
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toBe('默认分组以及分组下存在用户的组不能删除');
    expect((await api(backend.url, 'GET', '/api/v1/group', { query: { id: empty.body.id } })).body.id).toBe(
      empty.body.id,
    );
    expect((await admin('DELETE', '/api/v1/group', { query: { id: empty.body.id } })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/group', { query: { id: empty.body.id } })).body).toEqual({});
    expect((await admin('DELETE', '/api/v1/group')).body.message).toBe('请选择要操作的用户组（参数 id）');
  });
});

describe('ListGroup', () => {
  it('orders by sort desc then id, honours field, and wd only for permission holders', async () => {
    await admin('POST', '/api/v1/group', { body: { title: '置顶组', sort: 999 } });
    const list = await api(backend.url, 'GET', '/api/v1/group/list', {
      query: { field: ['id', 'TITLE', 'nope'], page: 1, size: 2 },
    });
    expect(list.body.group[0]).toEqual({ id: expect.any(Number), title: '置顶组' });
    expect(list.body.group).toHaveLength(2);
    expect(list.body.total).toBeGreaterThan(2);
    const wdAdmin = await admin('GET', '/api/v1/group/list', { query: { wd: '置顶' } });
    expect(wdAdmin.body.total).toBe(1);
    const wdAnon = await api(backend.url, 'GET', '/api/v1/group/list', { query: { wd: '置顶' } });
    expect(wdAnon.body.total).toBeGreaterThan(1);
  });
});

describe('group permissions', () => {
  it('replaces the grants, dropping duplicates and ids <= 0', async () => {
    const group = await admin('POST', '/api/v1/group', { body: { title: '授权组' } });
    const res = await admin('PUT', '/api/v1/group/permission', {
      body: { group_id: group.body.id, permission_id: [3, 1, 3, 0, -2] },
    });
    expect(res.status).toBe(200);
    expect((await admin('GET', '/api/v1/group/permission', { query: { id: group.body.id } })).body).toEqual({
      permission_id: [1, 3],
    });
    await admin('PUT', '/api/v1/group/permission', { body: { group_id: group.body.id, permission_id: [2] } });
    expect((await admin('GET', '/api/v1/group/permission', { query: { id: group.body.id } })).body).toEqual({
      permission_id: [2],
    });
  });

  it.each([
    [{ permission_id: [1] }, 400, '请选择用户组（参数 group_id）'],
    [{ group_id: 999, permission_id: [1] }, 404, '用户组不存在'],
    [{ group_id: 2, permission_id: [99999] }, 400, '权限不存在（参数 permission_id）'],
  ])('UpdateGroupPermission refuses %j', async (body, status, message) => {
    const res = await admin('PUT', '/api/v1/group/permission', { body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('GetGroupPermission answers 404 for an unknown group', async () => {
    expect((await admin('GET', '/api/v1/group/permission', { query: { id: 999 } })).status).toBe(404);
  });
});

describe('PermissionAPI', () => {
  it('lists every row generated from the route table, ordered by path', async () => {
    const res = await admin('GET', '/api/v1/permission/list');
    const paths = res.body.permission.map((p: { path: string }) => p.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toContain('/api.v1.UserAPI/ListUser');
    expect(paths).toContain('/api.v1.LanguageAPI/CreateLanguage');
    expect(paths).toContain('/api/v1/upload/banner');
    expect(res.body.permission.every((p: { title?: string }) => p.title)).toBe(true);
  });

  it('filters by method (case-insensitive) and ORs the LIKE filters', async () => {
    const post = await admin('GET', '/api/v1/permission/list', { query: { method: ['post', 'get'] } });
    expect(post.body.total).toBe(5);
    const either = await admin('GET', '/api/v1/permission/list', { query: { wd: '友链', path: 'BannerAPI' } });
    expect(
      either.body.permission.every(
        (p: { title: string; path: string }) => p.title.includes('友链') || p.path.includes('BannerAPI'),
      ),
    ).toBe(true);
    expect(either.body.total).toBe(10);
    const paged = await admin('GET', '/api/v1/permission/list', { query: { page: 2, size: 5 } });
    expect(paged.body.permission).toHaveLength(5);
  });

  it('renames a permission (title and description only) and reads it back', async () => {
    const before = await admin('GET', '/api/v1/permission', { query: { id: 3 } });
    const res = await admin('PUT', '/api/v1/permission', {
      body: { id: 3, method: 'POST', path: '/evil', title: '新名字', description: '说明' },
    });
    expect(res.status).toBe(200);
    const after = await admin('GET', '/api/v1/permission', { query: { id: 3 } });
    expect(after.body).toMatchObject({
      id: 3,
      method: before.body.method,
      path: before.body.path,
      title: '新名字',
      description: '说明',
    });
  });

  it('answers 404 for unknown ids and 400 for bad input', async () => {
    expect((await admin('GET', '/api/v1/permission', { query: { id: 9999 } })).status).toBe(404);
    expect((await admin('PUT', '/api/v1/permission', { body: { id: 9999, title: 'x' } })).status).toBe(404);
    expect((await admin('PUT', '/api/v1/permission', { body: { title: 'x' } })).body.message).toBe(
      '请选择权限（参数 id）',
    );
    expect((await admin('PUT', '/api/v1/permission', { body: { id: 1, title: 'x'.repeat(65) } })).body.message).toBe(
      '权限名称长度不能超过 64 个字符',
    );
  });
});

describe('a limited admin grants no more than they hold (decision 089)', () => {
  it('changes only the rows of a group that the caller holds', async () => {
    const rows = (await admin('GET', '/api/v1/permission/list', { query: { size: 1000 } })).body.permission as {
      id: number;
      path: string;
    }[];
    const row = (rpc: string) => rows.find((p) => p.path.endsWith(`/${rpc}`))!.id;
    const [grant, getUser, deleteUser] = [row('UpdateGroupPermission'), row('GetUser'), row('DeleteUser')];
    const newGroup = async (title: string, permissionIds: number[]) => {
      const id = (await admin('POST', '/api/v1/group', { body: { title } })).body.id as number;
      await admin('PUT', '/api/v1/group/permission', { body: { group_id: id, permission_id: permissionIds } });
      return id;
    };
    const granters = await newGroup('授权员', [grant, getUser]);
    const strong = await newGroup('用户管理员', [deleteUser]);
    const other = await newGroup('查看用户', []);
    const granter = await registerMember(backend.url);
    await admin('PUT', '/api/v1/user', { body: { id: granter.user.id, group_id: [granters] } });
    const setGrants = (groupId: number, permissionIds: number[]) =>
      api(backend.url, 'PUT', '/api/v1/group/permission', {
        token: granter.token,
        body: { group_id: groupId, permission_id: permissionIds },
      });
    const grantsOf = async (groupId: number) =>
      (await admin('GET', '/api/v1/group/permission', { query: { id: groupId } })).body.permission_id ?? [];

    expect((await setGrants(other, [getUser])).status).toBe(200);
    expect(await grantsOf(other)).toEqual([getUser]);
    // Not to their own group, nor to any other.
    const raise = await setGrants(granters, [grant, getUser, deleteUser]);
    expect(raise.status).toBe(403);
    expect(raise.body.message).toBe('您没有【删除用户】权限，不能把它授予用户组或从用户组收回');
    expect(await grantsOf(granters)).toEqual([grant, getUser].sort((a, b) => a - b));
    // Nor taken from a group that holds it, while the rows they hold change around it.
    expect((await setGrants(strong, [])).status).toBe(403);
    expect(await grantsOf(strong)).toEqual([deleteUser]);
    expect((await setGrants(strong, [deleteUser, getUser])).status).toBe(200);
    expect(await grantsOf(strong)).toEqual([getUser, deleteUser].sort((a, b) => a - b));
    // User 1 grants anything.
    expect(
      (await admin('PUT', '/api/v1/group/permission', { body: { group_id: strong, permission_id: [] } })).status,
    ).toBe(200);
  });
});
