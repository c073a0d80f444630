import type { Database } from './db/index';
import { now } from './db/schema';
import { generatePassword, hashPassword } from './platform/auth/password';
import type { PermissionSeed } from './platform/rpc';
import { CONFIG_KEYS } from './modules/config/keys';
import { LANGUAGES } from './modules/language/seed';

// The idempotent seed, run at every start (permissions.md §7): groups, permission rows,
// config keys, the admin account, navigation, languages and friend links. Existing data is
// never overwritten, so admins' edits survive restarts and upgrades.

export interface SeedOptions {
  permissions: readonly PermissionSeed[];
  configPresets: Record<string, Record<string, string>>;
  adminPassword?: string;
  passwordCost: number;
}

export interface InitialAdmin {
  username: string;
  password: string;
  generated: boolean;
}

const NAVIGATION = [
  { title: '首页', href: '/', sort: 102400 },
  { title: '文库资料', href: '/library', sort: 102300 },
  { title: '文章资讯', href: '/article', sort: 102200 },
];

const FRIENDLINKS = [
  { title: '摩枫网络科技', link: 'https://mnt.ltd' },
  { title: '书栈网', link: 'https://www.bookstack.cn' },
];

export async function runSeed(db: Database, options: SeedOptions): Promise<InitialAdmin | null> {
  return db.transaction().execute(async (trx) => {
    const ts = now();

    if (!(await trx.selectFrom('group').select('id').limit(1).executeTakeFirst())) {
      await trx.insertInto('group').values([
        {
          title: '超级管理员', description: '系统超级管理员', is_default: 0, is_display: 1, enable_upload: 1,
          enable_document_review: 0, enable_comment: 1, enable_comment_approval: 0, enable_article: 1,
          created_at: ts, updated_at: ts,
        },
        {
          title: '普通用户', description: '普通用户', is_default: 1, is_display: 1, enable_upload: 0,
          enable_document_review: 1, enable_comment: 1, enable_comment_approval: 1, enable_article: 1,
          created_at: ts, updated_at: ts,
        },
      ]).execute();
    }

    for (const p of options.permissions) {
      const existing = await trx.selectFrom('permission').select(['id', 'title'])
        .where('method', '=', p.method).where('path', '=', p.path).executeTakeFirst();
      if (!existing) {
        await trx.insertInto('permission').values({ method: p.method, path: p.path, title: p.title, created_at: ts, updated_at: ts }).execute();
      } else if (!existing.title) {
        await trx.updateTable('permission').set({ title: p.title, updated_at: ts }).where('id', '=', existing.id).execute();
      }
    }

    const configRows = await trx.selectFrom('config').select(['id', 'category', 'name']).execute();
    const configIds = new Map(configRows.map((r) => [`${r.category}.${r.name}`, r.id]));
    for (const key of CONFIG_KEYS) {
      const meta = {
        label: key.label, placeholder: key.placeholder ?? '', input_type: key.input_type, sort: key.sort,
        options: key.options ?? '', col_num: key.col_num ?? 24, is_secret: key.is_secret ? 1 : 0,
      };
      const id = configIds.get(`${key.category}.${key.name}`);
      if (id === undefined) {
        const value = options.configPresets[key.category]?.[key.name] ?? key.value;
        await trx.insertInto('config').values({ ...meta, category: key.category, name: key.name, value, created_at: ts, updated_at: ts }).execute();
      } else {
        await trx.updateTable('config').set(meta).where('id', '=', id).execute();
      }
    }

    let initialAdmin: InitialAdmin | null = null;
    if (!(await trx.selectFrom('user').select('id').limit(1).executeTakeFirst())) {
      const password = options.adminPassword ?? generatePassword();
      const admin = await trx.insertInto('user').values({
        username: 'admin', password: await hashPassword(password, options.passwordCost), created_at: ts, updated_at: ts,
      }).returning('id').executeTakeFirstOrThrow();
      const superGroup = await trx.selectFrom('group').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
      await trx.insertInto('user_group').values({ user_id: admin.id, group_id: superGroup.id, created_at: ts, updated_at: ts }).execute();
      await trx.updateTable('group').set((eb) => ({ user_count: eb('user_count', '+', 1) })).where('id', '=', superGroup.id).execute();
      initialAdmin = { username: 'admin', password, generated: options.adminPassword === undefined };
    }

    for (const nav of NAVIGATION) {
      if (await trx.selectFrom('navigation').select('id').where('href', '=', nav.href).executeTakeFirst()) continue;
      await trx.insertInto('navigation').values({
        ...nav, target: '_self', color: '', enable: 1, parent_id: 0, description: '', fixed: 1, created_at: ts, updated_at: ts,
      }).execute();
    }

    if (!(await trx.selectFrom('language').select('id').limit(1).executeTakeFirst())) {
      await trx.insertInto('language').values(LANGUAGES.map(([code, language, enabled]) => ({
        code, language, enable: enabled ? 1 : 0, sort: 0, created_at: ts, updated_at: ts,
      }))).execute();
    }

    if (!(await trx.selectFrom('friendlink').select('id').limit(1).executeTakeFirst())) {
      await trx.insertInto('friendlink').values(FRIENDLINKS.map((f) => ({
        ...f, description: '', sort: 0, enable: 1, created_at: ts, updated_at: ts,
      }))).execute();
    }

    // Blacklisted tokens that have expired anyway need no row any more.
    await trx.deleteFrom('logout').where('expired_at', '<', ts).execute();

    return initialAdmin;
  });
}
