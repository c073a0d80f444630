// LanguageAPI (contract: endpoints.md, LanguageAPI); the product shows languages as 行业.
import type { Empty } from '../../../shared/types/common';
import type { Language, ListLanguageReply } from '../../../shared/types/language';
import { api } from './client';

export const languageApi = {
  list: (query: { page: number; size: number; wd?: string; enable?: readonly boolean[] }) =>
    api.get<ListLanguageReply>('/api/v1/language/list', query),
  create: (language: Language) => api.post<Empty>('/api/v1/language', language),
  /** Writes `language`, `enable` and `sort`; the code is immutable. */
  update: (language: Language) => api.put<Empty>('/api/v1/language', language),
  setEnabled: (ids: readonly number[], enable: boolean) => api.put<Empty>('/api/v1/language/status', { id: ids, enable }),
  remove: (ids: readonly number[]) => api.delete<Empty>('/api/v1/language', { id: ids }),
};
