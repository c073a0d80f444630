import type { Selectable } from 'kysely';
import {
  CONFIG_RULES,
  CONFIG_SET_RULES,
  configSetProblems,
  configValueCleaned,
  configValueProblem,
} from '../../../shared/config-rules';
import { normalizeMainlandMobile } from '../../../shared/validation';
import { PAY_KEY_RULES } from '../payment/service';
import { sanitizeRichText } from '../../platform/rich-text';
import type { ConfigTable } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../wire/errors';
import { defineService, rpc } from '../../platform/rpc';
import { SendTestSmsRequest } from '../../../shared/messages/sms';
import { sendTestSms } from '../sms/service';
import { Configs, ListConfigRequest, Settings } from '../../../shared/messages/config';
import { buildSettings } from './settings';
import { configRowsOf, findConfigRow, setConfigValues } from './store';
import { systemRpcs } from './system-rpcs';

// ConfigAPI: public settings, the admin's config forms (and the SMS test message), and (system-rpcs.ts) the
// dashboard's stats, environment, sitemap and release information.

const SECRET_MASK = '******';
const BOOL_VALUES = ['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'];
const MAX_VALUE_LENGTH = 65535;

type ConfigRow = Selectable<ConfigTable>;

function optionValues(row: ConfigRow): string[] {
  return row.options
    .split('\n')
    .map((line) => line.split(':')[0]!.trim())
    .filter(Boolean);
}

/** Rules only the server can apply (the payment keys are parsed with Node's crypto). */
const SERVER_KEY_RULES: Record<string, (value: string) => string | null> = PAY_KEY_RULES;

/** Values other code shows as HTML: stored only through the rich-text allow-list. */
const KEY_SANITIZERS: Record<string, (value: string) => string> = {
  'vip.benefits': sanitizeRichText,
};

/** Checks a new value against the row's input type; returns it normalised. */
function validateValue(row: ConfigRow, value: string): string {
  const label = `配置项【${row.label || row.name}】`;
  const key = `${row.category}.${row.name}`;
  if (value.length > MAX_VALUE_LENGTH) throw badRequest(`${label}内容过长`);
  // Names lose their control characters when cleaned (configValueCleaned), as the form's rules expect.
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (!CONFIG_RULES[key]?.name && /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value))
    throw badRequest(`${label}包含非法字符`);
  switch (row.input_type) {
    case 'switch':
      if (!BOOL_VALUES.includes(value)) throw badRequest(`${label}必须是 true 或 false`);
      break;
    case 'number':
      if (!/^-?\d{1,15}$/.test(value.trim())) throw badRequest(`${label}必须是整数`);
      value = value.trim();
      break;
    case 'select':
      if (value !== '' && row.options && !optionValues(row).includes(value)) throw badRequest(`${label}的取值无效`);
      break;
    case 'select-multi': {
      const allowed = optionValues(row);
      const items = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (row.options && items.some((i) => !allowed.includes(i))) throw badRequest(`${label}包含无效的选项`);
      value = items.join(',');
      break;
    }
    case 'image':
      if (value !== '' && (!/^(\/uploads\/|https?:\/\/)/.test(value) || value.includes('..')))
        throw badRequest(`${label}必须是上传后的图片地址`);
      break;
    default:
      break;
  }
  const problem = configValueProblem(key, row.input_type, value) ?? SERVER_KEY_RULES[key]?.(value);
  if (problem) throw badRequest(`${label}${problem}`);
  // Formats (links, addresses, years) are checked without their surrounding spaces, and so kept;
  // names (the site's, the credit's) as cleaned.
  value = configValueCleaned(key, value);
  return KEY_SANITIZERS[key]?.(value) ?? value;
}

/**
 * The rules of keys read together (shared/config-rules.ts) over the stored values with `updates`
 * over them, for the rules reading a key being written: 400 under the first broken rule's key.
 */
async function checkTogether(
  db: Parameters<typeof configRowsOf>[0],
  updates: readonly { row: ConfigRow; value: string }[],
): Promise<void> {
  const changed = updates.map(({ row }) => `${row.category}.${row.name}`);
  const rules = CONFIG_SET_RULES.filter((rule) => rule.reads.some((key) => changed.includes(key)));
  if (!rules.length) return;
  const categories = [...new Set(rules.flatMap((rule) => [rule.key, ...rule.reads]).map((key) => key.split('.')[0]!))];
  const rows = new Map((await configRowsOf(db, categories)).map((row) => [`${row.category}.${row.name}`, row]));
  const values = new Map([...rows].map(([key, row]) => [key, row.value]));
  for (const { row, value } of updates) values.set(`${row.category}.${row.name}`, value);
  const label = (key: string) => rows.get(key)?.label || key.split('.')[1] || key;
  const [first] = configSetProblems((key) => values.get(key) ?? '', label, changed);
  if (first) throw badRequest(`配置项【${label(first.key)}】${first.problem}`);
}

export const configService = defineService('ConfigAPI', [
  rpc('GetSettings', {
    http: 'GET /api/v1/settings',
    response: Settings,
    auth: 'public',
    input: 'none',
    async handler(_req, ctx) {
      return buildSettings(ctx.db, await ctx.app.settings.snapshot(), ctx.app.version);
    },
  }),

  rpc('UpdateConfig', {
    http: 'PUT /api/v1/config',
    request: Configs,
    auth: 'perm',
    permission: '更新系统配置',
    async handler(req, ctx) {
      if (req.config.some((c) => c && c.category === 'release')) throw forbidden('不允许修改此类配置！');
      const updates: { row: ConfigRow; value: string }[] = [];
      for (const item of req.config) {
        if (!item || item.id <= 0) throw badRequest('配置项缺少 id');
        const row = await findConfigRow(ctx.db, item.id);
        if (!row) throw notFound(`配置项不存在（id=${item.id}）`);
        if (row.category === 'release') throw forbidden('不允许修改此类配置！');
        // The form sends back the mask it received for secrets: keep the stored value then.
        const value = row.is_secret && item.value === SECRET_MASK ? row.value : validateValue(row, item.value);
        updates.push({ row, value });
      }
      await checkTogether(ctx.db, updates);
      await ctx.db.transaction().execute((trx) =>
        setConfigValues(
          trx,
          updates.map(({ row, value }) => ({ id: row.id, value })),
        ),
      );
      await ctx.app.settings.reload();
      await ctx.app.contentChanges.tell({ content: 'settings', ids: updates.map(({ row }) => row.id) });
      if (updates.some((u) => u.row.category === 'email')) {
        const cfg = await ctx.app.settings.snapshot();
        const to = cfg.str('email', 'test_email');
        if (cfg.bool('email', 'enable') && to) {
          await ctx.app.mailer.send(
            {
              to,
              subject: `【${cfg.str('system', 'sitename') || '魔豆文库'}】测试邮件`,
              html: '<p>这是一封测试邮件，收到说明邮件服务配置正确。</p>',
            },
            { withReason: true },
          );
        }
      }
      return {};
    },
  }),

  rpc('ListConfig', {
    http: 'GET /api/v1/config/list',
    request: ListConfigRequest,
    response: Configs,
    auth: 'perm',
    permission: '获取系统配置列表',
    async handler(req, ctx) {
      const categories = [...new Set(req.category.map((c) => c.trim()).filter(Boolean))];
      if (!categories.length) return {};
      const rows = await configRowsOf(ctx.db, categories);
      return { config: rows.map((row) => (row.is_secret && row.value ? { ...row, value: SECRET_MASK } : row)) };
    },
  }),

  // Ours (docs/api.md §6): the test button of the SMS config page, with the saved settings.
  rpc('SendTestSms', {
    http: 'POST /api/v1/config/sms/test',
    request: SendTestSmsRequest,
    auth: 'perm',
    permission: '发送测试短信',
    async handler(req, ctx) {
      const mobile = normalizeMainlandMobile(req.mobile);
      if (!mobile) throw badRequest('请输入正确的中国大陆手机号码');
      await sendTestSms(ctx.app, mobile, ctx.ip);
      return {};
    },
  }),

  ...systemRpcs,
]);
