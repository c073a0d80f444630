// Searching the articles: the box of the list pages' side column, and the hits with the
// matches marked as the documents' search marks them (the server's highlights: HighlightedText).
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { hasSearchableText } from '../../../../shared/searchable-text';
import type { ArticleHit } from '../../../../shared/types/article';
import { PastLastPage, isPastLastPage } from '../../kit/paging/PastLastPage';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { IconSearch } from '../../ui/icons';
import { Pager } from '../../ui/Pager';
import { Button } from '../../ui/semi';
import { Input } from '../../ui/semi-extra';
import { EmptyState } from '../../ui/states';
import {
  MAX_QUERY_LENGTH,
  NOTHING_SEARCHABLE,
  NothingSearchableNote,
  QueryLimitNote,
  SearchSyntaxTip,
  articleSearchPath,
  useQueryCut,
} from '../search/SearchBox';
import { HighlightedText } from '../search/HighlightedText';
import { ArticleMeta } from './ArticleList';
import { articlePath, searchArticlesQuery } from './api';
import './article.css';

const SEARCH_PAGE_SIZE = 10;

/** The search box of `path`: `/article` searches every article, a category's page that category. */
export function ArticleSearchBox({ initial = '', path = '/article' }: { initial?: string; path?: string }) {
  const navigate = useNavigate();
  const [text, setText] = useState(initial);
  // Words the box refused to send (nothing searchable in them), until they change.
  const [refused, setRefused] = useState(false);
  const { ref: limitRef, cut } = useQueryCut<HTMLFormElement>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    if (query && !hasSearchableText(query)) {
      setRefused(true);
      return;
    }
    navigate(articleSearchPath(query, path));
  };
  return (
    <form ref={limitRef} className="app-article-search" role="search" aria-label="搜索文章" onSubmit={submit}>
      <Input
        value={text}
        onChange={(value: string) => {
          setText(value);
          setRefused(false);
        }}
        placeholder="搜索文章"
        maxLength={MAX_QUERY_LENGTH}
        aria-label="搜索文章"
      />
      <Button htmlType="submit" theme="solid" icon={<IconSearch />} aria-label="搜索" />
      <QueryLimitNote shown={cut} />
      <NothingSearchableNote shown={refused} />
    </form>
  );
}

function Hit({ hit }: { hit: ArticleHit }) {
  return (
    <li className="app-article-list__item">
      <h2 className="app-article-list__title">
        <Link to={articlePath(hit)}>
          {hit.title_highlight ? <HighlightedText html={hit.title_highlight} /> : hit.title}
        </Link>
      </h2>
      {hit.snippet && (
        <p className="app-article-list__description">
          <HighlightedText html={hit.snippet} />
        </p>
      )}
      <ArticleMeta article={hit} />
    </li>
  );
}

/**
 * The hits for `wd`, page `page` (in the URL), in `categoryIds` (all when none), with the count
 * and the time taken; a page past the last one says so, with links to the first and the last
 * page (`hrefFor`).
 */
export function ArticleSearchResults({
  wd,
  page,
  categoryIds = [],
  onPage,
  hrefFor,
}: {
  wd: string;
  page: number;
  /** A category's page: the category and those below it. */
  categoryIds?: readonly number[];
  onPage: (page: number) => void;
  /** The address of page `n` of these hits. */
  hrefFor: (page: number) => string;
}) {
  const results = useQuery(searchArticlesQuery(wd, page, categoryIds));
  const total = results.data?.total ?? 0;
  // An address with words of punctuation alone: not searched (searchArticlesQuery), and said why.
  if (!hasSearchableText(wd))
    return (
      <EmptyState title={NOTHING_SEARCHABLE.title} description={NOTHING_SEARCHABLE.description}>
        <Link to="/article">浏览全部文章</Link>
      </EmptyState>
    );
  return (
    <QueryStates
      query={results}
      loadingRows={6}
      failure="搜索失败"
      isEmpty={(data) => data.hits.length === 0}
      empty={
        isPastLastPage(page, total, SEARCH_PAGE_SIZE) ? (
          <PastLastPage page={page} pages={Math.ceil(total / SEARCH_PAGE_SIZE)} hrefFor={hrefFor} noun="结果" />
        ) : (
          <EmptyState
            title={`没有找到与“${wd}”相关的文章`}
            description="请检查输入是否正确，或者换一个关键词试试；一个字也可以搜索。"
          >
            <Link to="/article">浏览全部文章</Link>
            <SearchSyntaxTip />
          </EmptyState>
        )
      }
    >
      {({ hits, total, spend }) => (
        <>
          <p className="app-article-search__summary" role="status">
            找到 {total} 篇相关文章{spend ? `，用时 ${spend} 秒` : ''}
          </p>
          <ul className="app-article-list">
            {hits.map((hit) => (
              <Hit key={hit.id} hit={hit} />
            ))}
          </ul>
          <Pager page={page} size={SEARCH_PAGE_SIZE} total={total} onChange={onPage} />
        </>
      )}
    </QueryStates>
  );
}
