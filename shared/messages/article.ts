import { message } from '../wire';
import { Category } from './category';
import { User } from './user';

// ArticleAPI's messages (docs/moredoc.md §12, fields in .proto order).

export const Article = message('Article', {
  id: 'int64',
  identifier: 'string',
  author: 'string',
  view_count: 'int64',
  title: 'string',
  keywords: 'string',
  description: 'string',
  content: 'string',
  created_at: 'time',
  updated_at: 'time',
  deleted_at: 'time',
  category_id: 'int64[]',
  favorite_count: 'int64',
  comment_count: 'int64',
  recommend_at: 'time',
  is_recommend: 'bool',
  user_id: 'int64',
  user: User,
  status: 'int32',
  reject_reason: 'string',
  category: [Category],
});

export const GetArticleRequest = message('GetArticleRequest', { id: 'int64', identifier: 'string' });
export const ListArticleRequest = message('ListArticleRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  field: 'string[]',
  order: 'string',
  category_id: 'int64[]',
  is_recommend: 'bool[]',
  status: 'int32[]',
  user_id: 'int64[]',
  created_at: 'string[]',
  sort: 'string',
});
export const ListArticleReply = message('ListArticleReply', { total: 'int64', article: [Article] });
/** Ours (docs/api.md §13.6): the article and the category of the address it is read at. */
export const GetArticleNeighboursRequest = message('GetArticleNeighboursRequest', {
  id: 'int64',
  identifier: 'string',
  category_id: 'int64',
});
/** Ours: the articles listed just before and after one in its category's list; each absent when none. */
export const ArticleNeighbours = message('ArticleNeighbours', { previous: Article, next: Article });
/** A search hit: an Article plus two fields of ours, HTML with the matches in <em>…</em>. */
export const SearchHitArticle = message('Article', { ...Article.fields, title_highlight: 'string', snippet: 'string' });
export const SearchArticleReply = message('SearchArticleReply', {
  total: 'int64',
  spend: 'string',
  article: [SearchHitArticle],
});
export const SetArticlesCategoryRequest = message('SetArticlesCategoryRequest', {
  article_id: 'int64[]',
  category_id: 'int64[]',
});
export const RecommendArticlesRequest = message('RecommendArticlesRequest', {
  article_id: 'int64[]',
  is_recommend: 'bool',
});
export const CheckArticlesRequest = message('CheckArticlesRequest', {
  article_id: 'int64[]',
  status: 'int32',
  rejeact_reason: 'string',
});
