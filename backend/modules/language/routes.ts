import { flag, now } from '../../db/schema';
import { badRequest, notFound } from '../../wire/errors';
import { message } from '../../wire/message';
import { IdsRequest, Language } from '../../wire/messages';
import { defineService, rpc } from '../../platform/rpc';
import { checkText, likePattern, mapUnique, offsetOf, pick, positiveIds, selectedFields } from '../../wire/request';

// LanguageAPI: the document languages (134 seeded, 8 enabled). The SPA labels them "industry".

const UpdateLanguageStatusRequest = message('UpdateLanguageStatusRequest', { id: 'int64[]', enable: 'bool' });
const ListLanguageRequest = message('ListLanguageRequest', { wd: 'string', enable: 'bool[]', field: 'string[]', page: 'int32', size: 'int32' });
const ListLanguageReply = message('ListLanguageReply', { total: 'int64', language: [Language] });

const COLUMNS = ['id', 'language', 'enable', 'code', 'total', 'sort', 'created_at', 'updated_at'];

function idsOrBadRequest(ids: number[]): number[] {
  const clean = positiveIds(ids);
  if (!clean.length) throw badRequest('语言ID不能为空');
  return clean;
}

export const languageService = defineService('LanguageAPI', [
  rpc('CreateLanguage', {
    http: 'POST /api/v1/language', request: Language, auth: 'perm', permission: '新增语言',
    async handler(req, ctx) {
      const language = checkText(req.language.trim(), '语言名称', { required: true, max: 64 });
      const code = checkText(req.code.trim(), '语言代码', { required: true, max: 16 });
      if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(code)) throw badRequest('语言代码格式不正确，例如 zh-CN、en');
      const ts = now();
      await mapUnique(ctx.db.insertInto('language').values({ language, code, enable: flag(req.enable), sort: req.sort, created_at: ts, updated_at: ts }).execute(), '语言代码已存在');
      return {};
    },
  }),

  rpc('UpdateLanguage', {
    http: 'PUT /api/v1/language', request: Language, auth: 'perm', permission: '更新语言',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('语言ID不能为空');
      const language = checkText(req.language.trim(), '语言名称', { required: true, max: 64 });
      const result = await ctx.db.updateTable('language').set({ language, enable: flag(req.enable), sort: req.sort, updated_at: now() })
        .where('id', '=', req.id).executeTakeFirst();
      if (!result.numUpdatedRows) throw notFound('语言不存在');
      return {};
    },
  }),

  rpc('UpdateLanguageStatus', {
    http: 'PUT /api/v1/language/status', request: UpdateLanguageStatusRequest, auth: 'perm', permission: '更新语言状态',
    async handler(req, ctx) {
      await ctx.db.updateTable('language').set({ enable: flag(req.enable), updated_at: now() }).where('id', 'in', idsOrBadRequest(req.id)).execute();
      return {};
    },
  }),

  rpc('ListLanguage', {
    http: 'GET /api/v1/language/list', request: ListLanguageRequest, response: ListLanguageReply, auth: 'public', permission: '语言管理',
    async handler(req, ctx) {
      const page = req.page > 0 ? req.page : 1;
      const size = req.size > 0 ? req.size : 10;
      let query = ctx.db.selectFrom('language');
      if (!ctx.permitted) query = query.where('enable', '=', 1);
      else {
        if (req.enable.length) query = query.where('enable', 'in', [...new Set(req.enable.map((e) => flag(e)))]);
        if (req.wd.trim()) {
          const p = likePattern(req.wd);
          query = query.where((eb) => eb.or([eb('language', 'like', p), eb('code', 'like', p)]));
        }
      }
      const rows = await query.selectAll().orderBy('enable', 'desc').orderBy('sort', 'desc').orderBy('id', 'asc')
        .limit(size).offset(offsetOf(page, size)).execute();
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const fields = selectedFields(req.field, COLUMNS);
      return { language: rows.map((r) => pick(r, fields)), total: Number(total) };
    },
  }),

  rpc('DeleteLanguage', {
    http: 'DELETE /api/v1/language', request: IdsRequest('DeleteLanguageRequest'), auth: 'perm', permission: '删除语言',
    async handler(req, ctx) {
      await ctx.db.deleteFrom('language').where('id', 'in', idsOrBadRequest(req.id)).execute();
      return {};
    },
  }),
]);
