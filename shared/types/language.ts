// Wire types of language (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

export interface Language {
  id?: number;
  /** Display name (Chinese). */
  language?: string;
  enable?: boolean;
  /** `zh-CN`, `en`, … */
  code?: string;
  /** Document counter. */
  total?: number;
  sort?: number;
  created_at?: string;
  updated_at?: string;
}

export interface ListLanguageReply { total?: number; language?: Language[] }

export interface UpdateLanguageStatusRequest { id: number[]; enable: boolean }

export interface DeleteLanguageRequest { id: number[] }

export interface ListLanguageRequest extends PageRequest { enable?: boolean[] }
