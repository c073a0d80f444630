import { beforeAll, describe, expect, it } from 'vitest';
import { DocumentStatus } from '../../shared/constants';
import { api, login, registerMember, useBackend, withDatabase, type Member, type Query } from '../helpers/backend';
import { insertDocument } from '../helpers/document-fixtures';

// UserAPI: profiles, passwords and user management.

const backend = useBackend();
let member: Member;
let other: Member;

beforeAll(async () => {
  member = await registerMember(backend.url, { email: 'member@example.com' });
  other = await registerMember(backend.url, { email: 'other@example.com' });
});

/** A group the admin makes, holding the permissions of these paths (`/api.v1.UserAPI/SetUser`, each one known): its id. */
async function groupWith(title: string, paths: string[]): Promise<number> {
  const rows = (await backend.admin('GET', '/api/v1/permission/list', { query: { size: 1000 } })).body.permission as {
    id: number;
    path: string;
  }[];
  const permissionIds = paths.map((path) => rows.find((p) => p.path === path)?.id);
  expect(permissionIds, `the permissions of ${paths.join(', ')}`).not.toContain(undefined);
  const id = (await backend.admin('POST', '/api/v1/group', { body: { title } })).body.id as number;
  await backend.admin('PUT', '/api/v1/group/permission', { body: { group_id: id, permission_id: permissionIds } });
  return id;
}

/** A new member whom the admin put in these groups (instead of the default one). */
async function memberIn(groupIds: number[]): Promise<Member> {
  const user = await registerMember(backend.url);
  await backend.admin('PUT', '/api/v1/user', { body: { id: user.user.id, group_id: groupIds } });
  return user;
}

const userApi = (rpc: string) => `/api.v1.UserAPI/${rpc}`;

describe('GetUser', () => {
  it('shows a caller all their own columns but never the remark', async () => {
    await api(backend.url, 'PUT', '/api/v1/user/profile', {
      token: backend.adminToken,
      body: { id: member.user.id, email: 'member@example.com', remark: '内部备注' },
    });
    const res = await api(backend.url, 'GET', '/api/v1/user', { token: member.token });
    expect(res.body).toMatchObject({
      id: member.user.id,
      username: member.username,
      email: 'member@example.com',
      register_ip: '127.0.0.1',
    });
    expect(res.body.remark).toBeUndefined();
  });

  it('shows others only the public columns, unless the caller holds GetUser', async () => {
    const stranger = await api(backend.url, 'GET', '/api/v1/user', {
      token: other.token,
      query: { id: member.user.id },
    });
    expect(Object.keys(stranger.body).sort()).toEqual(['credit_count', 'id', 'username']);
    const anonymous = await api(backend.url, 'GET', '/api/v1/user', { query: { id: member.user.id } });
    expect(anonymous.body).toEqual(stranger.body);
    const admin = await api(backend.url, 'GET', '/api/v1/user', {
      token: backend.adminToken,
      query: { id: member.user.id },
    });
    expect(admin.body.email).toBe('member@example.com');
  });

  it('answers 400 to an anonymous caller without id and 404 to an unknown id', async () => {
    expect((await api(backend.url, 'GET', '/api/v1/user')).body).toMatchObject({ code: 3, message: 'ID错误' });
    expect((await api(backend.url, 'GET', '/api/v1/user', { query: { id: 99999 } })).status).toBe(404);
  });
});

describe('UpdateUserPassword', () => {
  it('changes the own password when the old one is right', async () => {
    const user = await registerMember(backend.url);
    const wrong = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: user.token,
      body: { old_password: 'nope-nope', new_password: 'changed-1' },
    });
    expect(wrong.body).toMatchObject({ code: 3, message: '原密码不正确' });
    const short = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: user.token,
      body: { old_password: user.password, new_password: '1' },
    });
    expect(short.body.message).toBe('新密码长度必须在 6 到 128 个字符之间');
    const ok = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: user.token,
      body: { old_password: user.password, new_password: 'changed-1' },
    });
    expect(ok.status).toBe(200);
    expect(await login(backend.url, user.username, 'changed-1')).toBeTruthy();
  });

  it("needs the permission to change another user's password", async () => {
    const target = await registerMember(backend.url);
    const denied = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: member.token,
      body: { id: target.user.id, new_password: 'hacked-1' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('您没有权限访问【修改他人密码】');
    const ok = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: backend.adminToken,
      body: { id: target.user.id, new_password: 'reset-by-admin' },
    });
    expect(ok.status).toBe(200);
    expect(await login(backend.url, target.username, 'reset-by-admin')).toBeTruthy();
    expect(
      (
        await api(backend.url, 'PUT', '/api/v1/user/password', {
          token: backend.adminToken,
          body: { id: 99999, new_password: 'whatever-1' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await api(backend.url, 'PUT', '/api/v1/user/password', { body: { new_password: 'whatever-1' } })).status,
    ).toBe(401);
  });
});

describe('UpdateUserProfile', () => {
  it('writes the own profile (all columns but the mobile number, which BindMobile sets; remark ignored)', async () => {
    const user = await registerMember(backend.url);
    const body = {
      id: user.user.id,
      email: 'profile@example.com',
      address: '北京',
      signature: '你好',
      realname: '张三',
      identity: '110',
      avatar: '/uploads/a/b/c/d/e/x.png',
      remark: '我自己写的',
    };
    const res = await api(backend.url, 'PUT', '/api/v1/user/profile', { token: user.token, body });
    expect(res.status, res.text).toBe(200);
    const me = await api(backend.url, 'GET', '/api/v1/user/list', {
      token: backend.adminToken,
      query: { id: user.user.id },
    });
    const { remark: _remark, ...expected } = body;
    expect(me.body.user[0]).toMatchObject(expected);
    expect(me.body.user[0].remark).toBeUndefined();
  });

  it("takes a new avatar from this site's uploads only; an OAuth provider's one may stay", async () => {
    const user = await registerMember(backend.url);
    const kept = 'https://thirdqq.qlogo.cn/g?b=oidb&k=abc&s=100';
    await withDatabase(backend.dataDir, (db) =>
      db.updateTable('user').set({ avatar: kept }).where('id', '=', user.user.id).execute(),
    );
    const update = (avatar: string) =>
      api(backend.url, 'PUT', '/api/v1/user/profile', { token: user.token, body: { id: user.user.id, avatar } });
    expect((await update(kept)).status).toBe(200);
    const elsewhere = await update('https://thirdqq.qlogo.cn/g?b=oidb&k=other&s=100');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toBe('头像地址必须是上传后的图片地址');
    expect((await update('/uploads/0a/1b/0a1b2c.png')).status).toBe(200);
    expect((await update('')).status).toBe(200);
  });

  it('keeps a real name of only control characters out, and takes an empty one', async () => {
    const user = await registerMember(backend.url);
    const update = (fields: object) =>
      api(backend.url, 'PUT', '/api/v1/user/profile', { token: user.token, body: { id: user.user.id, ...fields } });
    const realname = async () =>
      (await api(backend.url, 'GET', '/api/v1/user/list', { token: backend.adminToken, query: { id: user.user.id } }))
        .body.user[0].realname;
    expect((await update({ realname: '张三' })).status).toBe(200);
    const refused = await update({ realname: '\u202e\u2066' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 3,
      message: '真实姓名不能只包含控制字符或文字方向符号',
      error: '真实姓名不能只包含控制字符或文字方向符号',
    });
    expect(await realname()).toBe('张三');
    expect((await update({ realname: '李\u202e四' })).status).toBe(200);
    expect(await realname()).toBe('李四');
    // Optional: left empty ('' or absent, or blank) it is accepted.
    for (const fields of [{ realname: '' }, {}, { realname: '  ' }]) {
      const res = await update(fields);
      expect(res.status, JSON.stringify(fields)).toBe(200);
    }
    expect(await realname()).toBeUndefined();
  });

  it("refuses to touch somebody else's profile without the permission", async () => {
    for (const id of [0, other.user.id]) {
      const res = await api(backend.url, 'PUT', '/api/v1/user/profile', {
        token: member.token,
        body: { id, signature: 'x' },
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('您没有权限更改他人信息');
    }
    const admin = await api(backend.url, 'PUT', '/api/v1/user/profile', {
      token: backend.adminToken,
      body: { id: other.user.id, email: 'other@example.com', remark: '管理员备注' },
    });
    expect(admin.status).toBe(200);
    const list = await api(backend.url, 'GET', '/api/v1/user/list', {
      token: backend.adminToken,
      query: { id: other.user.id },
    });
    expect(list.body.user[0].remark).toBe('管理员备注');
    expect(
      (await api(backend.url, 'PUT', '/api/v1/user/profile', { token: backend.adminToken, body: { id: 99999 } }))
        .status,
    ).toBe(404);
  });

  it.each([
    [{ email: 'bad' }, 400, '邮箱格式不正确'],
    [{ email: 'other@example.com' }, 409, '邮箱已存在'],
    [{ mobile: '13800000000' }, 400, '手机号需通过短信验证码绑定'],
    [{ avatar: 'javascript:alert(1)' }, 400, '头像地址必须是上传后的图片地址'],
    [{ avatar: 'https://tracker.example.com/a.png' }, 400, '头像地址必须是上传后的图片地址'],
    [{ avatar: '/uploads/../api/v1/user/logout.png' }, 400, '头像地址必须是上传后的图片地址'],
    [{ signature: 'x'.repeat(256) }, 400, '个性签名长度不能超过 255 个字符'],
    [{ nickname: 'x' }, 400, 'unknown field "nickname" in v1.User'],
    [{ realname: '\u202e\u2066' }, 400, '真实姓名不能只包含控制字符或文字方向符号'],
    [{ realname: '\u0007' }, 400, '真实姓名不能只包含控制字符或文字方向符号'],
  ])('validates %j', async (fields, status, message) => {
    const res = await api(backend.url, 'PUT', '/api/v1/user/profile', {
      token: member.token,
      body: { id: member.user.id, ...fields },
    });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });
});

describe('AddUser and SetUser', () => {
  it('adds a user with groups and keeps user_count right', async () => {
    const group = await api(backend.url, 'POST', '/api/v1/group', {
      token: backend.adminToken,
      body: { title: '编辑组' },
    });
    const res = await api(backend.url, 'POST', '/api/v1/user', {
      token: backend.adminToken,
      body: { username: 'added-user', password: 'added-pass', email: 'added@example.com', group_id: [group.body.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const token = await login(backend.url, 'added-user', 'added-pass');
    const groups = await api(backend.url, 'GET', '/api/v1/user/group', { token });
    expect(groups.body.group).toEqual([expect.objectContaining({ id: group.body.id, user_count: 1 })]);
  });

  it.each([
    [{ username: 'ab', password: 'added-pass', group_id: [2] }, 400, '用户名长度必须在 3 到 32 个字符之间'],
    [{ username: 'new-user-x', password: 'added-pass', group_id: [] }, 400, '用户组不能为空'],
    [{ username: 'new-user-x', password: 'added-pass', group_id: [999] }, 400, '用户组不存在'],
    [{ username: 'new-user-x', password: 'added-pass', email: 'x', group_id: [2] }, 400, '邮箱格式不正确'],
    [{ username: 'admin', password: 'added-pass', group_id: [2] }, 409, '用户名已存在'],
    [
      { username: '139-0013-9001', password: 'added-pass', group_id: [2] },
      400,
      '出于隐私保护，用户名不能是邮箱或手机号码',
    ],
    [
      { username: '+8613900139000', password: 'added-pass', group_id: [2] },
      400,
      '出于隐私保护，用户名不能是邮箱或手机号码',
    ],
    [{ username: 'new-user-x', password: 'added-pass', email: 'member@example.com', group_id: [2] }, 409, '邮箱已存在'],
  ])('AddUser refuses %j', async (body, status, message) => {
    const res = await api(backend.url, 'POST', '/api/v1/user', { token: backend.adminToken, body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('replaces the groups of a user and can reset the password', async () => {
    const user = await registerMember(backend.url);
    const res = await api(backend.url, 'PUT', '/api/v1/user', {
      token: backend.adminToken,
      body: { id: user.user.id, group_id: [1, 2], password: 'set-by-admin' },
    });
    expect(res.status).toBe(200);
    const token = await login(backend.url, user.username, 'set-by-admin');
    const groups = await api(backend.url, 'GET', '/api/v1/user/group', { token });
    expect(groups.body.group.map((g: { id: number }) => g.id)).toEqual([1, 2]);
    const back = await api(backend.url, 'PUT', '/api/v1/user', {
      token: backend.adminToken,
      body: { id: user.user.id, group_id: [2] },
    });
    expect(back.status).toBe(200);
    const group1 = await api(backend.url, 'GET', '/api/v1/group', { query: { id: 1 } });
    expect(group1.body.user_count).toBe(1);
  });

  it.each([
    [{ group_id: [2] }, 400, '请选择用户（参数 id）'],
    [{ id: 99999, group_id: [2] }, 404, '用户不存在'],
    [{ id: 2, group_id: [] }, 400, '用户组不能为空'],
    [{ id: 2, group_id: [2], password: '1' }, 400, '密码长度必须在 6 到 128 个字符之间'],
  ])('SetUser refuses %j', async (body, status, message) => {
    const res = await api(backend.url, 'PUT', '/api/v1/user', { token: backend.adminToken, body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });
});

describe('AdjustUserCredit', () => {
  const adjust = (body: Record<string, unknown>, token = backend.adminToken) =>
    api(backend.url, 'PUT', '/api/v1/user/credit', { token, body });
  const balanceOf = async (id: number) =>
    (await api(backend.url, 'GET', '/api/v1/user', { token: backend.adminToken, query: { id } })).body.credit_count ??
    0;
  const dynamicsOf = async (token: string) =>
    ((await api(backend.url, 'GET', '/api/v1/user/dynamic', { token })).body.dynamic ?? []).map(
      (d: { type: number; content: string }) => [d.type, d.content],
    );

  it('adds and takes away credits, each change a dynamic of the member with its reason', async () => {
    const user = await registerMember(backend.url);
    const before = await balanceOf(user.user.id);
    expect((await adjust({ id: user.user.id, amount: 30, reason: '活动<奖励>' })).status).toBe(200);
    expect((await adjust({ id: user.user.id, amount: -12, reason: '违规发帖' })).status).toBe(200);
    expect(await balanceOf(user.user.id)).toBe(before + 18);
    expect((await dynamicsOf(user.token)).slice(0, 2)).toEqual([
      [16, '管理员扣除 12 魔豆，原因：违规发帖'],
      [16, '管理员增加 30 魔豆，原因：活动&lt;奖励&gt;'],
    ]);
  });

  it('never takes a balance below zero, even when two deductions race', async () => {
    const user = await registerMember(backend.url);
    const balance = await balanceOf(user.user.id);
    await adjust({ id: user.user.id, amount: 100 - balance, reason: '对齐余额' });
    const refused = await adjust({ id: user.user.id, amount: -101, reason: '扣除' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('余额不足，最多可扣除 100 魔豆');
    const raced = await Promise.all([0, 1].map(() => adjust({ id: user.user.id, amount: -60, reason: '扣除' })));
    expect(raced.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await balanceOf(user.user.id)).toBe(40);
    // The refused changes wrote no dynamic.
    expect((await dynamicsOf(user.token)).filter(([type]: [number]) => type === 16)).toHaveLength(2);
  });

  it.each([
    [{ amount: 5, reason: '奖励' }, 400, '请选择用户（参数 id）'],
    [{ id: 99999, amount: 5, reason: '奖励' }, 404, '用户不存在'],
    [{ id: 2, amount: 0, reason: '奖励' }, 400, '调整数量须为 -100000 到 100000 之间的非零整数'],
    [{ id: 2, amount: 100001, reason: '奖励' }, 400, '调整数量须为 -100000 到 100000 之间的非零整数'],
    [{ id: 2, amount: -100001, reason: '奖励' }, 400, '调整数量须为 -100000 到 100000 之间的非零整数'],
    [{ id: 2, amount: 5, reason: '  ' }, 400, '原因不能为空'],
  ])('refuses %j', async (body, status, message) => {
    const res = await adjust(body);
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it('is refused to a member without the permission, the balance left as it was', async () => {
    const before = await balanceOf(other.user.id);
    const res = await adjust({ id: other.user.id, amount: 1000, reason: '自己加' }, other.token);
    expect(res.status).toBe(403);
    expect(await balanceOf(other.user.id)).toBe(before);
  });
});

describe('DeleteUser', () => {
  it("deletes users and their rows after checking the caller's password", async () => {
    const victim = await registerMember(backend.url);
    await api(backend.url, 'PUT', '/api/v1/user/sign', { token: victim.token });
    const wrong = await api(backend.url, 'DELETE', '/api/v1/user', {
      token: backend.adminToken,
      query: { id: victim.user.id, password: 'not-mine' },
    });
    expect(wrong.body).toMatchObject({ code: 3, message: '密码错误' });
    const before = (await api(backend.url, 'GET', '/api/v1/group', { query: { id: 2 } })).body.user_count;
    const ok = await api(backend.url, 'DELETE', '/api/v1/user', {
      token: backend.adminToken,
      query: { id: [victim.user.id, 1], password: backend.adminPassword },
    });
    expect(ok.status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/user', { query: { id: victim.user.id } })).status).toBe(404);
    expect((await api(backend.url, 'GET', '/api/v1/user', { query: { id: 1 } })).status).toBe(200);
    expect((await api(backend.url, 'GET', '/api/v1/group', { query: { id: 2 } })).body.user_count).toBe(before - 1);
    expect((await api(backend.url, 'GET', '/api/v1/user/sign', { token: victim.token })).status).toBe(401);
    const signs = await withDatabase(backend.dataDir, (db) =>
      db
        .selectFrom('sign')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', victim.user.id)
        .executeTakeFirstOrThrow(),
    );
    expect(signs.n).toBe(0);
  });

  /** Something of `userId`'s in the recycle bin or out of it: a document or an article, in a given status. */
  async function ownedBy(userId: number, kind: 'document' | 'article', status: number): Promise<number> {
    if (kind === 'document') return (await insertDocument(backend.dataDir, { userId, status })).id;
    return withDatabase(backend.dataDir, async (db) => {
      const ts = new Date().toISOString();
      const row = await db
        .insertInto('article')
        .values({
          identifier: `owned-${userId}-${status}`,
          title: '作者的文章',
          user_id: userId,
          status,
          created_at: ts,
          updated_at: ts,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  it.each([
    ['a document whose conversion failed', 'document', DocumentStatus.Failed],
    ['a document in review', 'document', DocumentStatus.PendingReview],
    ['a converted document', 'document', DocumentStatus.Converted],
    ['an article in review', 'article', 0],
    ['a published article', 'article', 1],
  ] as const)(
    'keeps a user who owns %s (counted or not); lets them go once it is in the recycle bin',
    async (_name, kind, status) => {
      const author = await registerMember(backend.url);
      const id = await ownedBy(author.user.id, kind, status);
      const remove = () =>
        api(backend.url, 'DELETE', '/api/v1/user', {
          token: backend.adminToken,
          query: { id: author.user.id, password: backend.adminPassword },
        });
      const refused = await remove();
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('用户存在文档或文章，不允许删除');
      expect((await api(backend.url, 'GET', '/api/v1/user', { query: { id: author.user.id } })).status).toBe(200);
      await withDatabase(backend.dataDir, (db) =>
        db.updateTable(kind).set({ deleted_at: new Date().toISOString() }).where('id', '=', id).execute(),
      );
      expect((await remove()).status).toBe(200);
    },
  );

  it('names, in a batch, the users who still own documents or articles, and deletes none of the batch', async () => {
    const members: Member[] = [];
    for (let n = 0; n < 6; n++) members.push(await registerMember(backend.url));
    const [a, b, c, d, e, f] = members.map((m) => m.user.id as number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    await ownedBy(b, 'document', DocumentStatus.Converted);
    await ownedBy(c, 'article', 1);
    await ownedBy(e, 'document', DocumentStatus.PendingReview);
    await ownedBy(f, 'document', DocumentStatus.Failed);
    const remove = (ids: number[]) =>
      api(backend.url, 'DELETE', '/api/v1/user', {
        token: backend.adminToken,
        query: { id: ids, password: backend.adminPassword },
      });
    const name = (id: number) => members.find((m) => m.user.id === id)!.username;

    const four = await remove([a, b, c, d, e, f]);
    expect(four.status).toBe(400);
    expect(four.body.message).toBe(
      `用户“${name(b)}”、“${name(c)}”、“${name(e)}”等 4 位存在文档或文章，不允许删除；取消选择后可删除其余用户`,
    );
    for (const id of [a, b, c, d, e, f])
      expect((await api(backend.url, 'GET', '/api/v1/user', { query: { id } })).status).toBe(200);

    const all = await remove([b, c]);
    expect(all.body.message).toBe(`用户“${name(b)}”、“${name(c)}”存在文档或文章，不允许删除`);
    expect((await remove([a, d])).status).toBe(200);
  });

  it('needs ids and refuses to delete the caller', async () => {
    expect(
      (
        await api(backend.url, 'DELETE', '/api/v1/user', {
          token: backend.adminToken,
          query: { password: backend.adminPassword },
        })
      ).body.message,
    ).toBe('请选择要操作的用户（参数 id）');
    const group = await api(backend.url, 'POST', '/api/v1/group', {
      token: backend.adminToken,
      body: { title: '用户管理员' },
    });
    const perms = await api(backend.url, 'GET', '/api/v1/permission/list', {
      token: backend.adminToken,
      query: { path: 'UserAPI/DeleteUser' },
    });
    await api(backend.url, 'PUT', '/api/v1/group/permission', {
      token: backend.adminToken,
      body: { group_id: group.body.id, permission_id: [perms.body.permission[0].id] },
    });
    const manager = await registerMember(backend.url);
    await api(backend.url, 'PUT', '/api/v1/user', {
      token: backend.adminToken,
      body: { id: manager.user.id, group_id: [group.body.id] },
    });
    const self = await api(backend.url, 'DELETE', '/api/v1/user', {
      token: manager.token,
      query: { id: manager.user.id, password: manager.password },
    });
    expect(self.body.message).toBe('不能删除自己的账号');
  });
});

describe('ListUser', () => {
  it('shows visitors a fixed public column set, with groups and a total', async () => {
    await api(backend.url, 'PUT', '/api/v1/user/profile', {
      token: member.token,
      body: { id: member.user.id, email: 'member@example.com', realname: '张三' },
    });
    const res = await api(backend.url, 'GET', '/api/v1/user/list', { query: { page: 1, size: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.user.length).toBeGreaterThan(1); // size is clamped to at least 10
    expect(res.body.total).toBeGreaterThan(1);
    for (const user of res.body.user) {
      expect(user.email).toBeUndefined();
      expect(user.register_ip).toBeUndefined();
      expect(user.realname).toBeUndefined(); // a real name is not for visitors (GetUser neither)
      expect(user.group_id.length).toBeGreaterThan(0);
    }
  });

  it('filters by wd (admins only), group and id; sorts; limit drops the total', async () => {
    const wd = await api(backend.url, 'GET', '/api/v1/user/list', {
      token: backend.adminToken,
      query: { wd: 'member@exam' },
    });
    expect(wd.body.user.map((u: { id: number }) => u.id)).toEqual([member.user.id]);
    const ignored = await api(backend.url, 'GET', '/api/v1/user/list', { query: { wd: 'member@exam' } });
    expect(ignored.body.user.length).toBeGreaterThan(1);
    const admins = await api(backend.url, 'GET', '/api/v1/user/list', {
      token: backend.adminToken,
      query: { group_id: 1 },
    });
    expect(admins.body.user.map((u: { id: number }) => u.id)).toEqual([1]);
    const sorted = await api(backend.url, 'GET', '/api/v1/user/list', {
      token: backend.adminToken,
      query: { sort: 'id asc' },
    });
    expect(sorted.body.user[0].id).toBe(1);
    const limited = await api(backend.url, 'GET', '/api/v1/user/list', { query: { limit: 10 } });
    expect(limited.body.total).toBeUndefined();
  });

  it('sorts by a column that may be empty with the empty ones first ascending and last descending, on either engine', async () => {
    const added = await api(backend.url, 'POST', '/api/v1/user', {
      token: backend.adminToken,
      body: { username: 'never-logged-in', password: 'never-pass', group_id: [2] },
    });
    expect(added.status).toBe(200);
    const byLogin = async (sort: string) =>
      (
        await api(backend.url, 'GET', '/api/v1/user/list', { token: backend.adminToken, query: { sort, size: 1000 } })
      ).body.user.map((u: { login_at?: string }) => u.login_at !== undefined);
    const ascending = await byLogin('login_at asc');
    expect(ascending[0]).toBe(false);
    expect(ascending.at(-1)).toBe(true);
    expect(ascending).toEqual([...ascending].sort((a, b) => Number(a) - Number(b)));
    const descending = await byLogin('login_at desc');
    expect(descending[0]).toBe(true);
    expect(descending.at(-1)).toBe(false);
  });
});

describe("the super user's account", () => {
  it('is changed by user 1 only, not by a holder of the user permissions', async () => {
    const manager = await memberIn([
      await groupWith('账号客服', ['UpdateUserPassword', 'UpdateUserProfile', 'SetUser'].map(userApi)),
    ]);
    const calls: [string, string, Record<string, unknown>][] = [
      ['PUT', '/api/v1/user/password', { id: 1, new_password: 'taken-over-1' }],
      ['PUT', '/api/v1/user', { id: 1, group_id: [2], password: 'taken-over-2' }],
      ['PUT', '/api/v1/user/profile', { id: 1, email: 'attacker@example.com' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(backend.url, method, path, { token: manager.token, body });
      expect(res.status, path).toBe(403);
      expect(res.body.message).toBe('超级管理员的账号只能由其本人修改');
    }
    expect(await login(backend.url, 'admin', backend.adminPassword)).toBeTruthy();
    const admin = await api(backend.url, 'GET', '/api/v1/user', { token: backend.adminToken });
    expect(admin.body.email).not.toBe('attacker@example.com');
    // The permissions still work on everybody else.
    const target = await registerMember(backend.url);
    const reset = await api(backend.url, 'PUT', '/api/v1/user/password', {
      token: manager.token,
      body: { id: target.user.id, new_password: 'reset-by-manager' },
    });
    expect(reset.status).toBe(200);
    expect(await login(backend.url, target.username, 'reset-by-manager')).toBeTruthy();
    // User 1 still changes its own profile.
    const own = await api(backend.url, 'PUT', '/api/v1/user/profile', {
      token: backend.adminToken,
      body: { id: 1, email: admin.body.email, signature: '站长' },
    });
    expect(own.status).toBe(200);
  });
});

describe('a limited admin changes no account that can do more (decision 089)', () => {
  it('refuses the password, profile and groups of a stronger user, and groups that grant more', async () => {
    const support = await groupWith(
      '客服组',
      ['UpdateUserPassword', 'UpdateUserProfile', 'SetUser', 'AddUser', 'DeleteUser'].map(userApi),
    );
    const managers = await groupWith('用户主管', ['UpdateUserPassword', 'AdjustUserCredit'].map(userApi));
    const agent = await memberIn([support]);
    const manager = await memberIn([managers]);
    const as = (method: string, path: string, body: object) =>
      method === 'DELETE'
        ? api(backend.url, method, path, { token: agent.token, query: body as Query })
        : api(backend.url, method, path, { token: agent.token, body });

    const refusals: [string, string, object, string][] = [
      ['PUT', '/api/v1/user/password', { id: manager.user.id, new_password: 'taken-over-1' }, '您不能修改其账号'],
      ['PUT', '/api/v1/user/profile', { id: manager.user.id, email: 'agent@example.com' }, '您不能修改其账号'],
      ['PUT', '/api/v1/user', { id: manager.user.id, group_id: [2] }, '您不能修改其账号'],
      ['DELETE', '/api/v1/user', { id: [manager.user.id], password: agent.password }, '您不能修改其账号'],
      ['PUT', '/api/v1/user', { id: agent.user.id, group_id: [support, managers] }, '您不能把用户加入其中'],
      [
        'POST',
        '/api/v1/user',
        { username: 'agent-made', password: 'agent-made-1', group_id: [managers] },
        '您不能把用户加入其中',
      ],
    ];
    for (const [method, path, body, says] of refusals) {
      const res = await as(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toMatch(/权限【调整用户积分】/);
      expect(res.body.message).toContain(says);
    }
    expect(await login(backend.url, manager.username, manager.password)).toBeTruthy();
    const groups = await api(backend.url, 'GET', '/api/v1/user/group', { token: agent.token });
    expect(groups.body.group.map((g: { id: number }) => g.id)).toEqual([support]);

    // Accounts that hold no more, and the groups the agent may hand out, are theirs to change.
    const member = await memberIn([2]);
    expect((await as('PUT', '/api/v1/user/password', { id: member.user.id, new_password: 'by-agent-1' })).status).toBe(
      200,
    );
    expect((await as('PUT', '/api/v1/user', { id: member.user.id, group_id: [2, support] })).status).toBe(200);
    expect(
      (await as('POST', '/api/v1/user', { username: 'agent-made', password: 'agent-made-1', group_id: [2] })).status,
    ).toBe(200);
  });

  it('punishes, moves the credits of, or changes the VIP of no account that holds a permission the caller lacks', async () => {
    const memberOfGroupWith = async (title: string, paths: string[]) => memberIn([await groupWith(title, paths)]);
    const moderator = await memberOfGroupWith('处罚客服', [
      '/api.v1.PunishmentAPI/CreatePunishment',
      '/api.v1.PunishmentAPI/UpdatePunishment',
      '/api.v1.UserAPI/AdjustUserCredit',
      '/api.v1.UserVipAPI/GrantUserVip',
      '/api.v1.UserVipAPI/RevokeUserVip',
    ]);
    const stronger = await memberOfGroupWith('站务主管', [
      '/api.v1.PunishmentAPI/CreatePunishment',
      '/api.v1.ConfigAPI/UpdateConfig',
    ]);
    const member = await registerMember(backend.url);
    const as = (method: string, path: string, body: object) =>
      api(backend.url, method, path, { token: moderator.token, body });
    const ban = (userId: number) => ({ user_id: [userId], type: [1], enable: true, reason: '测试处罚' });

    for (const [method, path, body, says] of [
      ['POST', '/api/v1/punishment', ban(stronger.user.id), '您不能处罚该用户'],
      ['POST', '/api/v1/punishment', ban(member.user.id), undefined],
      ['PUT', '/api/v1/user/credit', { id: stronger.user.id, amount: -1, reason: '测试扣分' }, '您不能调整其积分'],
      ['PUT', '/api/v1/user/credit', { id: member.user.id, amount: 5, reason: '测试加分' }, undefined],
      ['POST', '/api/v1/vip/grant', { user_id: [stronger.user.id], days: 30, reason: '测试开通' }, '您不能变更其会员'],
      [
        'POST',
        '/api/v1/vip/grant',
        { user_id: [member.user.id, stronger.user.id], days: 30, reason: '测试开通' },
        '您不能变更其会员',
      ],
      ['POST', '/api/v1/vip/grant', { user_id: [member.user.id], days: 30, reason: '测试开通' }, undefined],
      ['PUT', '/api/v1/vip/revoke', { user_id: [stronger.user.id], reason: '测试取消' }, '您不能变更其会员'],
      ['PUT', '/api/v1/vip/revoke', { user_id: [member.user.id], reason: '测试取消' }, undefined],
    ] as const) {
      const res = await as(method, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(says ? 403 : 200);
      if (says) expect(res.body.message).toBe(`该用户拥有您没有的权限【更新系统配置】，${says}`);
    }
    // Nor is a member's punishment moved onto the stronger account.
    const punishments = await api(backend.url, 'GET', '/api/v1/punishment/list', {
      token: backend.adminToken,
      query: { user_id: [member.user.id, stronger.user.id] },
    });
    expect(punishments.body.punishment.map((p: { user_id: number }) => p.user_id)).toEqual([member.user.id]);
    const moved = await as('PUT', '/api/v1/punishment', {
      ...punishments.body.punishment[0],
      user_id: stronger.user.id,
    });
    expect(moved.status).toBe(403);
    expect(await login(backend.url, stronger.username, stronger.password)).toBeTruthy();
  });
});
