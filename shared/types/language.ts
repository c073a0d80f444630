// Wire types of language (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as languageMessages from '../messages/language';

/**
 * `language`: Display name (Chinese).
 * `code`: `zh-CN`, `en`, …
 * `total`: Document counter.
 */
export type Language = Wire<typeof languageMessages.Language>;

export type ListLanguageReply = Wire<typeof languageMessages.ListLanguageReply>;

export type UpdateLanguageStatusRequest = Wire<typeof languageMessages.UpdateLanguageStatusRequest>;

export type DeleteLanguageRequest = Wire<ReturnType<typeof commonMessages.IdsRequest>>;

export type ListLanguageRequest = Wire<typeof languageMessages.ListLanguageRequest>;
