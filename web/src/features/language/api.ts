// LanguageAPI (contract: endpoints.md, LanguageAPI); the product shows languages as 行业. Every
// write marks the language lists and the public settings stale.
import type { Empty } from '../../../../shared/types/common';
import type { Language, ListLanguageReply } from '../../../../shared/types/language';
import { api } from '../../api/client';
import { invalidateAfter, type WriteContext } from '../../api/query-client';
import { settingsKeys } from '../settings/api';

export const languageKeys = { all: ['language'] as const, admin: ['language', 'admin'] as const };

export const listLanguages = (query: { page: number; size: number; wd?: string; enable?: readonly boolean[] }) =>
  api.get<ListLanguageReply>('/api/v1/language/list', query);

const stale = [languageKeys.all, settingsKeys.all];

export const createLanguage = (language: Language, context: WriteContext) =>
  invalidateAfter(api.post<Empty>('/api/v1/language', language), context, stale);

/** Writes `language`, `enable` and `sort`; the code is immutable. */
export const updateLanguage = (language: Language, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/language', language), context, stale);

export const setLanguagesEnabled = (ids: readonly number[], enable: boolean, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/language/status', { id: ids, enable }), context, stale);

export const deleteLanguages = (ids: readonly number[], context: WriteContext) =>
  invalidateAfter(api.delete<Empty>('/api/v1/language', { id: ids }), context, stale);
