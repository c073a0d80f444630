import fs from 'node:fs';
import os from 'node:os';
import { SUPER_USER_ID } from '../../../shared/permissions';
import { SETUP_ITEMS, type SetupItem } from '../../../shared/types/config';
import { badRequest, forbidden } from '../../wire/errors';
import { checkText } from '../../wire/request';
import { isAdmin } from '../../platform/auth/session';
import { rpc, type RpcContext } from '../../platform/rpc';
import { scratchRoot } from '../../platform/scratch';
import { countBanners } from '../banner/service';
import { countCategories } from '../category/service';
import { conversionBacklog, converterEnvironment } from '../document/service';
import { countFriendlinks } from '../friendlink/service';
import { countUsers, initialPasswordUnchanged } from '../user/service';
import { defaultGroupAllows } from '../group/service';
import { offeredProviders } from '../payment/service';
import { DeviceInfo, Envs, Release, SetupChecklist, Stats } from '../../../shared/messages/config';
import { writeSitemaps } from '../sitemap/service';
import { SEEDED_HOME_TEXT } from './keys';
import { countContent, setConfigValue } from './store';

// ConfigAPI for the admin dashboard: counters, the converters this install has (asked of
// the document module), what a new site still lacks, hardware, sitemap and the release notice.

const RELEASE_SOURCES = ['none', 'auto', 'gitee', 'github'];

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(fs.readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (pretty) return pretty;
  } catch {
    // not Linux, or no os-release: fall through
  }
  return `${os.type()} ${os.release()}`;
}

async function requireAdmin(ctx: RpcContext): Promise<void> {
  const me = ctx.requireUser();
  if (!(await isAdmin(ctx.db, me.id))) throw forbidden('只有管理员才有权限执行此操作！');
}

async function conversionFields(ctx: RpcContext) {
  const backlog = await conversionBacklog(ctx.db);
  return {
    conversion_waiting: backlog.waiting,
    conversion_waiting_seconds: backlog.oldestWaitingSeconds,
    conversion_workers: backlog.workers,
  };
}

async function readRelease(ctx: RpcContext) {
  const cfg = await ctx.app.settings.snapshot();
  const r = (name: string) => cfg.str('release', name);
  return {
    tag_name: r('tag_name'),
    name: r('name'),
    body: r('body'),
    ignore: r('ignore'),
    source: r('source'),
    current: ctx.app.version,
  };
}

async function setRelease(ctx: RpcContext, name: string, value: string): Promise<void> {
  await setConfigValue(ctx.db, 'release', name, value);
  await ctx.app.settings.reload();
}

export const systemRpcs = [
  rpc('GetStats', {
    http: 'GET /api/v1/stats',
    response: Stats,
    auth: 'public',
    permission: '查看系统信息',
    input: 'none',
    async handler(_req, ctx) {
      const cfg = await ctx.app.settings.snapshot();
      const content = await countContent(ctx.db);
      const virtualUsers = Math.max(cfg.int('display', 'virtual_register_count'), 0);
      const stats = {
        user_count: (await countUsers(ctx.db)) + virtualUsers,
        document_count: content.documents,
        article_count: content.articles,
      };
      // The three counts are the home page's; the program's version and the server's
      // operating system help an attacker more than a visitor, so only the permission sees them.
      if (!ctx.permitted) return stats;
      return {
        ...stats,
        os: osName(),
        version: ctx.app.version,
        ...(await ctx.app.build()),
        category_count: await countCategories(ctx.db),
        comment_count: content.comments,
        banner_count: await countBanners(ctx.db),
        friendlink_count: await countFriendlinks(ctx.db),
        report_count: content.reports,
        // The dashboard counts the accounts: user_count is the home page's, 网站虚拟注册用户数 added.
        virtual_user_count: virtualUsers,
        // The dashboard warns of a conversion backlog, or of conversions waiting with no worker.
        ...(await conversionFields(ctx)),
      };
    },
  }),

  rpc('GetEnvs', {
    http: 'GET /api/v1/envs',
    response: Envs,
    auth: 'public',
    permission: '获取环境依赖检测',
    input: 'none',
    async handler(_req, ctx) {
      if (!ctx.permitted) return {};
      return { envs: await converterEnvironment(ctx.app) };
    },
  }),

  rpc('GetSetupChecklist', {
    http: 'GET /api/v1/setup/checklist',
    response: SetupChecklist,
    auth: 'perm',
    permission: '查看建站清单',
    input: 'none',
    async handler(_req, ctx) {
      const cfg = await ctx.app.settings.snapshot();
      const envs = await converterEnvironment(ctx.app);
      const installed = (name: string) => envs.some((env) => env.name === name && env.is_installed);
      const lacking: Record<SetupItem, boolean> = {
        category: (await countCategories(ctx.db, 0)) === 0,
        upload: !(await defaultGroupAllows(ctx.db, 'enable_upload')),
        mail: !cfg.bool('email', 'enable') || !cfg.str('email', 'host') || !cfg.str('email', 'username'),
        payment: offeredProviders(cfg).length === 0,
        domain: !cfg.str('system', 'domain').trim(),
        home_title: [cfg.str('system', 'title'), cfg.str('system', 'description')].includes(SEEDED_HOME_TEXT),
        admin_password: await initialPasswordUnchanged(ctx.db),
        libreoffice: !installed('LibreOffice'),
        calibre: !installed('Calibre'),
      };
      return { missing: SETUP_ITEMS.filter((item) => lacking[item]) };
    },
  }),

  rpc('UpdateSitemap', {
    http: 'PUT /api/v1/sitemap',
    auth: 'perm',
    permission: '更新站点地图sitemap',
    input: 'none',
    async handler(_req, ctx) {
      await writeSitemaps(ctx.app);
      return {};
    },
  }),

  rpc('GetDeviceInfo', {
    http: 'GET /api/v1/device',
    response: DeviceInfo,
    auth: 'perm',
    permission: '查看服务器硬件信息',
    input: 'none',
    async handler(_req, ctx) {
      const cpus = os.cpus();
      const cores = cpus.length || 1;
      const total = os.totalmem();
      const available = os.freemem();
      const used = total - available;
      // The disk of the site's own files; with the database and the files elsewhere (PostgreSQL,
      // S3) DATA_DIR may not exist, and the disk this machine writes is the scratch folders'.
      const diskName = fs.existsSync(ctx.app.dataDir) ? ctx.app.dataDir : scratchRoot();
      const disk = await fs.promises.statfs(diskName);
      const diskTotal = disk.blocks * disk.bsize;
      const diskFree = disk.bavail * disk.bsize;
      const round = (n: number) => Math.round(n * 100) / 100;
      return {
        cpu: {
          cores,
          model_name: cpus[0]?.model ?? '',
          mhz: cpus[0]?.speed ?? 0,
          percent: round(Math.min(100, (os.loadavg()[0]! / cores) * 100)),
        },
        memory: { total, available, used, free: total - used, percent: round((used / total) * 100) },
        disk: [
          {
            disk_name: diskName,
            total: diskTotal,
            used: diskTotal - diskFree,
            free: diskFree,
            percent: round(diskTotal ? ((diskTotal - diskFree) / diskTotal) * 100 : 0),
          },
        ],
      };
    },
  }),

  rpc('SetSQLMode', {
    http: 'PUT /api/v1/sqlmode',
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      if (ctx.requireUser().id !== SUPER_USER_ID) throw forbidden('只有用户ID为1的用户才有权限执行此操作！');
      return {}; // MySQL-only (ONLY_FULL_GROUP_BY); nothing to do on SQLite.
    },
  }),

  rpc('GetLatestRelease', {
    http: 'GET /api/v1/release',
    response: Release,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      await requireAdmin(ctx);
      return readRelease(ctx);
    },
  }),

  rpc('RefreshLatestRelease', {
    http: 'POST /api/v1/release',
    response: Release,
    auth: 'login',
    input: 'none',
    async handler(_req, ctx) {
      await requireAdmin(ctx);
      const release = await readRelease(ctx);
      if (!['auto', 'gitee', 'github'].includes(release.source))
        throw badRequest('您未指定新版本检测来源，无法获取最新版本更新！');
      // The embedded backend has no release feed to query: it reports what it knows.
      return release;
    },
  }),

  rpc('IgnoreRelease', {
    http: 'PUT /api/v1/release/ignore',
    request: Release,
    auth: 'login',
    async handler(req, ctx) {
      await requireAdmin(ctx);
      await setRelease(ctx, 'ignore', checkText(req.tag_name.trim(), '版本号', { max: 64 }));
      return {};
    },
  }),

  rpc('SetReleaseSource', {
    http: 'PUT /api/v1/release/source',
    request: Release,
    auth: 'login',
    async handler(req, ctx) {
      await requireAdmin(ctx);
      if (!RELEASE_SOURCES.includes(req.source))
        throw badRequest('版本检测来源必须是 none、auto、gitee 或 github 之一');
      await setRelease(ctx, 'source', req.source);
      return {};
    },
  }),
];
