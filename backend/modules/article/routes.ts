import { defineService } from '../../platform/rpc';
import { adminRpcs } from './admin-rpcs';
import { articleRpcs } from './article-rpcs';

// ArticleAPI (contract endpoints.md, ArticleAPI; what we answer differently: docs/api.md).
export const articleService = defineService('ArticleAPI', [...articleRpcs, ...adminRpcs]);
