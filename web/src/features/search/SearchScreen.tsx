// `/search?wd=…`: full-text results with highlighted snippets, the time taken, filters
// (category, format, industry, date), order and paging, all in the address, and a link to the
// same words in the articles' search. An empty query or no hit offers suggestions. The
// advertisement slots of the search page have their places.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  SEARCH_PAGE_SIZE,
  SEARCH_PERIODS,
  SEARCH_SORTS,
  searchRequest,
  searchState,
  type SearchState,
} from '../../../../shared/page-data';
import { formatBytes, formatDate } from '../../../../shared/format';
import { firstSearchedWord, hasSearchableText } from '../../../../shared/searchable-text';
import type { SearchedDocument } from '../../../../shared/types/document';
import { ChoiceChips, FilterLine } from '../../kit/filters/ChoiceChips';
import { PageLinks } from '../../kit/paging/PageLinks';
import { PastLastPage, isPastLastPage } from '../../kit/paging/PastLastPage';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { useQueryValues } from '../../kit/routing/query-values';
import { plainText } from '../../ui/plain-text';
import { EmptyState } from '../../ui/states';
import { AdSlot, useSlotAds } from '../advertisement/AdSlot';
import { categoryChoices, useDocumentCategories } from '../category/category-tree';
import { DocumentFilterChips } from '../document/DocumentFilterChips';
import { documentPath, documentPathById } from '../document/document-links';
import { FormatIcon } from '../document/FormatIcon';
import { useSettings } from '../settings/use-settings';
import { HighlightedText } from './HighlightedText';
import { newWordsAddress, searchAddress } from './search-address';
import { searchQuery } from './api';
import { NOTHING_SEARCHABLE, SearchBox, SearchSyntaxTip, articleSearchPath, searchPath } from './SearchBox';
import './search.css';

// The state and the request come from shared/page-data.ts: the gateway reads the same address
// to make the first page's call for the page it serves.

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function Suggestions({
  words,
  title,
  description,
  tip = false,
}: {
  words: readonly string[];
  title: string;
  description: string;
  /** With the search's syntax (`-词`, quotes): where a search starts or its words found nothing. */
  tip?: boolean;
}) {
  return (
    <EmptyState title={title} description={description}>
      {words.length > 0 && (
        <p className="app-search__suggestions">
          试试：
          {words.map((word) => (
            <Link key={word} to={searchPath(word)}>
              {word}
            </Link>
          ))}
        </p>
      )}
      <Link to="/library">浏览文库资料</Link>
      {tip && <SearchSyntaxTip />}
    </EmptyState>
  );
}

/** The first words the server marked in a snippet (`<em>…</em>`), as text. */
function markedWords(snippet: string): string {
  const marked = /<em>(.*?)<\/em>/.exec(snippet)?.[1] ?? '';
  // plain-text, not DOMParser: the first screen renders this screen in Node, where there is none.
  return plainText(marked);
}

/** The reader at a page of the document, the words to find there in the address. */
function readerAt(base: string | undefined, page: number, words: string): string | undefined {
  return base && page > 0 ? `${base}?${new URLSearchParams({ page: String(page), wd: words })}` : base;
}

/**
 * One hit: the title and the snippet of its text with the matches marked (the server's
 * highlights). A snippet from a page says which ("第 14 页"), and the links open the reader
 * there, the words marked. A document that matches only past its free preview (its snippet is
 * then the description) says on which page, with a link to the reader there (where the reader
 * shows its paywall notice to those who may not read it).
 */
function Result({ doc, wd }: { doc: SearchedDocument; wd: string }) {
  // Hits carry no categories; the reader puts the document's own into the address.
  const base = documentPath(doc) ?? (doc.id ? documentPathById(doc.id) : undefined);
  const page = doc.snippet_page ?? 0;
  // The reader's find looks for one run of text: the first word asked for, not the whole query.
  const words = page > 0 ? markedWords(doc.snippet ?? '') || firstSearchedWord(wd) : '';
  const path = readerAt(base, page, words);
  const matchPage = doc.match_page ?? 0;
  // Past the preview the snippet marks nothing: the server names the words of the query on that page.
  const matchWord = doc.match_words?.[0] || firstSearchedWord(wd);
  const matchPath = matchPage > 0 ? readerAt(base, matchPage, matchWord) : undefined;
  const title = <HighlightedText html={doc.title_highlight || escapeHtml(doc.title || '未命名文档')} />;
  const snippet = doc.snippet || escapeHtml(doc.description ?? '');
  return (
    <li className="app-search-result">
      <h2 className="app-search-result__title">
        <FormatIcon ext={doc.ext} />
        {path ? <Link to={path}>{title}</Link> : title}
      </h2>
      <p className="app-search-result__snippet">
        {page > 0 && path ? (
          <Link className="app-search-result__page" to={path}>
            第 {page} 页
          </Link>
        ) : null}
        <HighlightedText html={snippet} />
      </p>
      {matchPath ? (
        <p className="app-search-result__beyond">
          <Link to={matchPath}>第 {matchPage} 页有匹配内容</Link>（预览范围外）
        </p>
      ) : null}
      <p className="app-search-result__meta">
        {doc.pages ? <span>{doc.pages} 页</span> : null}
        {doc.size ? <span>{formatBytes(doc.size)}</span> : null}
        {doc.created_at && <span>{formatDate(doc.created_at, 'YYYY-MM-DD')}</span>}
        {doc.username && <span>{doc.username}</span>}
      </p>
    </li>
  );
}

export function SearchScreen() {
  const navigate = useNavigate();
  const settings = useSettings();
  const categories = useDocumentCategories();
  const choices = categoryChoices(categories);
  const state = searchState(useQueryValues());
  // The date filters count from when the page opened, so the query key stays the same.
  const [openedAt] = useState(() => Date.now());
  const request = searchRequest(state, openedAt);
  const results = useQuery({ ...searchQuery(request), placeholderData: keepPreviousData });
  const recommended = settings.system?.recommend_words ?? [];
  // The side column holds its ads and the 热门搜索; with neither, the results take its width
  // rather than leave an empty column beside them.
  const sideShown = useSlotAds('search_right').length > 0 || recommended.length > 0;
  const href = (change: Partial<SearchState>) => searchAddress({ ...state, page: 1, ...change });
  const total = results.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE));
  // No hit with a filter on: the words may well be right, the filters too narrow.
  const filtered = Boolean(state.category || state.ext || state.language || state.period);

  return (
    <div className="app-container app-search">
      <div className="app-search__box">
        <SearchBox initial={state.wd} size="large" autoFocus={!state.wd} pathFor={(wd) => newWordsAddress(state, wd)} />
      </div>
      <AdSlot slot="search_top" />
      {!state.wd ? (
        <section className="app-panel">
          <h1 className="app-visually-hidden">搜索文档</h1>
          <Suggestions
            words={recommended}
            title="输入关键词开始搜索"
            description="可以搜索文档的标题、关键词和正文内容。"
            tip
          />
        </section>
      ) : (
        <div className={sideShown ? 'app-search__layout' : 'app-search__layout app-search__layout--single'}>
          <div className="app-search__main">
            <section className="app-panel app-search__filters" aria-label="筛选">
              <h1 className="app-search__heading">
                “{state.wd}”的搜索结果
                {/* A live region, there before its words: a screen reader hears the count of a new
                    search or filter, which changes no focus. No hit: the empty state below says so,
                    not a count of 0. */}
                <span className="app-search__stats" role="status">
                  {results.data && !results.isPlaceholderData && total > 0
                    ? `找到约 ${total} 条结果${results.data.spend ? `，用时 ${results.data.spend} 秒` : ''}`
                    : ''}
                </span>
              </h1>
              {/* This page finds documents; the articles have their own search, one link away. */}
              <p className="app-search__elsewhere">
                找文章？<Link to={articleSearchPath(state.wd)}>在文章资讯中搜索“{state.wd}”</Link>
              </p>
              <FilterLine label="分类" htmlFor="search-category">
                <select
                  id="search-category"
                  value={state.category ?? ''}
                  onChange={(event) => void navigate(href({ category: Number(event.target.value) || undefined }))}
                >
                  <option value="">全部分类</option>
                  {/* An address naming a category that is gone (deleted, disabled, an old link): the
                      filter still narrows the search, so the select says so, not 全部分类. */}
                  {state.category && !choices.some((choice) => choice.value === state.category) && (
                    <option value={state.category}>分类不存在或已被停用</option>
                  )}
                  {choices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </FilterLine>
              <DocumentFilterChips current={state} hrefFor={href} />
              <ChoiceChips
                label="时间"
                choices={SEARCH_PERIODS}
                current={state.period}
                hrefFor={(period) => href({ period })}
              />
              <ChoiceChips
                label="排序"
                choices={SEARCH_SORTS}
                current={state.sort}
                hrefFor={(sort) => href({ sort })}
              />
            </section>
            <section className="app-panel" aria-label="搜索结果" aria-busy={results.isFetching}>
              {/* Words of punctuation alone (`。。`): not searched (searchQuery), and said why. */}
              {!hasSearchableText(state.wd) ? (
                <Suggestions
                  words={recommended}
                  title={NOTHING_SEARCHABLE.title}
                  description={NOTHING_SEARCHABLE.description}
                />
              ) : (
                <QueryStates
                  query={results}
                  loadingRows={6}
                  failure="搜索失败，请稍后再试"
                  isEmpty={(data) => (data.document ?? []).length === 0}
                  empty={
                    isPastLastPage(state.page, total, SEARCH_PAGE_SIZE) ? (
                      <PastLastPage
                        page={state.page}
                        pages={pages}
                        hrefFor={(page) => searchAddress({ ...state, page })}
                        noun="结果"
                      />
                    ) : filtered ? (
                      <EmptyState
                        title="当前筛选条件下没有找到相关文档"
                        description="放宽分类、格式、行业或时间的筛选试试。"
                      >
                        <Link to={searchAddress({ wd: state.wd, page: 1, period: '', sort: state.sort })}>
                          清除筛选条件
                        </Link>
                      </EmptyState>
                    ) : (
                      <Suggestions
                        words={recommended.filter((w) => w !== state.wd)}
                        title="没有找到相关文档"
                        description="请检查输入是否正确，或者换一个更简短、更常用的关键词。"
                        tip
                      />
                    )
                  }
                >
                  {(data) => (
                    <>
                      <ol className="app-search__results">
                        {(data.document ?? []).map((doc) => (
                          <Result key={doc.id} doc={doc} wd={state.wd} />
                        ))}
                      </ol>
                      <PageLinks
                        page={state.page}
                        pages={pages}
                        hrefFor={(page) => searchAddress({ ...state, page })}
                      />
                    </>
                  )}
                </QueryStates>
              )}
            </section>
            <AdSlot slot="search_bottom" />
          </div>
          {sideShown && (
            <aside className="app-search__side" aria-label="推荐">
              <AdSlot slot="search_right" />
              {recommended.length > 0 && (
                <section className="app-panel" aria-labelledby="search-hot-title">
                  <h2 id="search-hot-title" className="app-panel__title">
                    热门搜索
                  </h2>
                  <ul className="app-search__hot">
                    {recommended.map((word) => (
                      <li key={word}>
                        <Link to={searchPath(word)}>{word}</Link>
                      </li>
                    ))}
                  </ul>
                </section>
              )}
            </aside>
          )}
        </div>
      )}
    </div>
  );
}
