import { flag } from '../../db/schema';
import { badRequest, notFound } from '../../wire/errors';
import { IdsRequest } from '../../../shared/messages/common';
import { checkName, checkText, listVisibility, mapUnique, pick, positiveIds, selectedFields } from '../../wire/request';
import { defineService, rpc } from '../../platform/rpc';
import {
  Language,
  ListLanguageReply,
  ListLanguageRequest,
  UpdateLanguageStatusRequest,
} from '../../../shared/messages/language';
import {
  LANGUAGE_COLUMNS,
  deleteLanguages,
  insertLanguage,
  listLanguages,
  setLanguagesEnabled,
  updateLanguage,
} from './store';

// LanguageAPI: the document languages, which the SPA labels 行业 (industry); a new site is seeded
// with industries (seed.ts).

function idsOrBadRequest(ids: number[]): number[] {
  const clean = positiveIds(ids);
  if (!clean.length) throw badRequest('语言ID不能为空');
  return clean;
}

export const languageService = defineService('LanguageAPI', [
  rpc('CreateLanguage', {
    http: 'POST /api/v1/language',
    request: Language,
    auth: 'perm',
    permission: '新增语言',
    async handler(req, ctx) {
      const language = checkName(req.language, '语言名称', { required: true, max: 64 });
      const code = checkText(req.code.trim(), '语言代码', { required: true, max: 32 });
      // An industry's code as the admin form takes it (education, it-internet), or a language tag (zh-CN).
      if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(code)) throw badRequest('代码只能包含字母、数字、下划线和短横线');
      await mapUnique(
        insertLanguage(ctx.db, { language, code, enable: flag(req.enable), sort: req.sort }),
        '语言代码已存在',
      );
      await ctx.app.settings.reload();
      return {};
    },
  }),

  rpc('UpdateLanguage', {
    http: 'PUT /api/v1/language',
    request: Language,
    auth: 'perm',
    permission: '更新语言',
    async handler(req, ctx) {
      if (req.id <= 0) throw badRequest('语言ID不能为空');
      const language = checkName(req.language, '语言名称', { required: true, max: 64 });
      if (!(await updateLanguage(ctx.db, req.id, { language, enable: flag(req.enable), sort: req.sort })))
        throw notFound('语言不存在');
      await ctx.app.settings.reload();
      return {};
    },
  }),

  rpc('UpdateLanguageStatus', {
    http: 'PUT /api/v1/language/status',
    request: UpdateLanguageStatusRequest,
    auth: 'perm',
    permission: '更新语言状态',
    async handler(req, ctx) {
      await setLanguagesEnabled(ctx.db, idsOrBadRequest(req.id), flag(req.enable));
      await ctx.app.settings.reload();
      return {};
    },
  }),

  rpc('ListLanguage', {
    http: 'GET /api/v1/language/list',
    request: ListLanguageRequest,
    response: ListLanguageReply,
    auth: 'public',
    permission: '语言管理',
    async handler(req, ctx) {
      const { rows, total } = await listLanguages(ctx.db, {
        ...listVisibility(ctx.permitted, req.enable, req.wd),
        page: req.page > 0 ? req.page : 1,
        size: req.size > 0 ? req.size : 10,
      });
      const fields = selectedFields(req.field, LANGUAGE_COLUMNS);
      return { language: rows.map((r) => pick(r, fields)), total };
    },
  }),

  rpc('DeleteLanguage', {
    http: 'DELETE /api/v1/language',
    request: IdsRequest('DeleteLanguageRequest'),
    auth: 'perm',
    permission: '删除语言',
    async handler(req, ctx) {
      await deleteLanguages(ctx.db, idsOrBadRequest(req.id));
      await ctx.app.settings.reload();
      return {};
    },
  }),
]);
