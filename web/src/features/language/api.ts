// LanguageAPI (docs/moredoc.md, LanguageAPI); the product shows languages as 行业. Every
// write marks the language lists and the public settings stale.
import type { Empty } from '../../../../shared/types/common';
import type { Language, ListLanguageReply } from '../../../../shared/types/language';
import { api } from '../../api/client';
import { invalidateAfter, resourceWrites, type WriteContext } from '../../api/query-client';
import { settingsKeys } from '../settings/api';

export const languageKeys = { all: ['language'] as const, admin: ['language', 'admin'] as const };

export const listLanguages = (query: { page: number; size: number; wd?: string; enable?: readonly boolean[] }) =>
  api.get<ListLanguageReply>('/api/v1/language/list', query);

const stale = [languageKeys.all, settingsKeys.all];

/** Create, update (`language`, `enable` and `sort`; the code is immutable) and delete. */
export const languageWrites = resourceWrites<Language>('/api/v1/language', stale);

export const setLanguagesEnabled = (ids: readonly number[], enable: boolean, context: WriteContext) =>
  invalidateAfter(api.put<Empty>('/api/v1/language/status', { id: ids, enable }), context, stale);
