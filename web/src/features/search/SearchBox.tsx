// The search form of every public page (header), the home page (with the settings'
// recommended words) and the results page: it goes to `/search?wd=…`.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { articleSearchPath, searchPath } from '../../../../shared/page-paths';
import { hasSearchableText } from '../../../../shared/searchable-text';
import { IconSearch } from '../../ui/icons';
import './search.css';

/**
 * Longest query a search box takes, the document search's and the article search's alike
 * (docs/api.md, search): past it the box takes no more and says so (QueryLimitNote).
 */
export const MAX_QUERY_LENGTH = 100;

/**
 * Whether what was last typed, pasted or dropped into the search box inside `ref` was cut at
 * MAX_QUERY_LENGTH (the input's `maxLength` took less than was sent), until the next input that
 * fits: exactly MAX_QUERY_LENGTH characters typed cut nothing. Read from `beforeinput` (and the
 * end of an IME's composition), which still tells what was meant; the value alone does not.
 */
export function useQueryCut<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [cut, setCut] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    let composingFrom = 0;
    const room = (input: HTMLInputElement) =>
      MAX_QUERY_LENGTH - input.value.length + (input.selectionEnd ?? 0) - (input.selectionStart ?? 0);
    const onBeforeInput = (event: Event) => {
      const { data, dataTransfer, inputType, isComposing, target } = event as InputEvent;
      // A composition's text is pinyin on its way; what it ends with is checked at its end.
      if (!(target instanceof HTMLInputElement) || isComposing || inputType === 'insertCompositionText') return;
      const text = data ?? dataTransfer?.getData('text/plain') ?? '';
      setCut(text.length > room(target));
    };
    const onCompositionStart = (event: Event) => {
      if (event.target instanceof HTMLInputElement) composingFrom = room(event.target);
    };
    const onCompositionEnd = (event: Event) => setCut(((event as CompositionEvent).data ?? '').length > composingFrom);
    box.addEventListener('beforeinput', onBeforeInput);
    box.addEventListener('compositionstart', onCompositionStart);
    box.addEventListener('compositionend', onCompositionEnd);
    return () => {
      box.removeEventListener('beforeinput', onBeforeInput);
      box.removeEventListener('compositionstart', onCompositionStart);
      box.removeEventListener('compositionend', onCompositionEnd);
    };
  }, []);
  return { ref, cut };
}

/** Said under a search box whose query was cut at MAX_QUERY_LENGTH (useQueryCut). */
export function QueryLimitNote({ shown }: { shown: boolean }) {
  return shown ? (
    <p className="app-search-box__limit" role="status">
      关键词最多 {MAX_QUERY_LENGTH} 个字，超出的部分不会输入
    </p>
  ) : null;
}

/**
 * Why words of punctuation or spaces alone (`。。`, `《》`) find nothing: the index has nothing
 * of them to match (shared/searchable-text.ts). Said by the search boxes, which do not send such
 * words, and by the results of the document and the article search when an address holds them.
 */
export const NOTHING_SEARCHABLE = {
  title: '关键词中没有可以搜索的内容',
  description: '标点和空格无法搜索，请输入文字、字母或数字进行搜索。',
} as const;

/** Said under a search box that refused to send its words: they hold nothing searchable. */
export function NothingSearchableNote({ shown }: { shown: boolean }) {
  return shown ? (
    <p className="app-search-box__refused" role="alert">
      {NOTHING_SEARCHABLE.description}
    </p>
  ) : null;
}

/**
 * How a query leaves a word out (`-词`) or asks for a phrase as typed (quotes; decision 087),
 * told where a search starts or found nothing: the documents' and the articles' alike.
 */
export function SearchSyntaxTip() {
  return (
    <p className="app-search-tip">
      搜索技巧：词前加减号可排除该词，如 <code>图书馆 -量子</code>；词组加上引号可按完整词组搜索，如{' '}
      <code>"机器学习"</code>。
    </p>
  );
}

export { articleSearchPath, searchPath };

export function SearchBox({
  initial = '',
  size = 'small',
  recommended = [],
  autoFocus,
  label = '搜索文档',
  pathFor = searchPath,
}: {
  initial?: string;
  size?: 'small' | 'large';
  /** Words offered under the box (the home page's `system.recommend_words`). */
  recommended?: readonly string[];
  autoFocus?: boolean;
  /** The search landmark's name: a page with two boxes (the header's and its own) names them apart. */
  label?: string;
  /** The address of a search for `query` (not empty); `searchPath` by default. */
  pathFor?: (query: string) => string;
}) {
  const navigate = useNavigate();
  const [wd, setWd] = useState(initial);
  // Another search shown (another box's, a suggested word's, back): the box says its words, unless
  // it holds words typed since (a search of its own, or typing on while it was on its way). Taken in
  // place, not by drawing the box anew, which would drop the keyboard's focus on <body>.
  const [shown, setShown] = useState(initial);
  // The words of the box's own last search: not typed since, even when another search shows
  // before the box was drawn with them (a link followed at once: the header's box follows the
  // address in a render of its own).
  const [searched, setSearched] = useState<string>();
  // Words the box refused to send (nothing searchable in them), until they change.
  const [refused, setRefused] = useState(false);
  const { ref: limitRef, cut } = useQueryCut<HTMLFormElement>();
  if (shown !== initial) {
    setShown(initial);
    if (wd === shown || wd.trim() === searched) setWd(initial);
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = wd.trim();
    if (query && !hasSearchableText(query)) {
      setRefused(true);
      return;
    }
    setSearched(query);
    // An empty query opens the results page with its suggestions.
    void navigate(query ? pathFor(query) : '/search');
  };
  return (
    <div className={`app-search-box app-search-box--${size}`}>
      <form ref={limitRef} role="search" aria-label={label} onSubmit={submit} className="app-search-box__form">
        <input
          type="search"
          name="wd"
          className="app-search-box__input"
          aria-label="搜索关键词"
          placeholder="搜索文档标题或内容"
          value={wd}
          maxLength={MAX_QUERY_LENGTH}
          onChange={(event) => {
            setWd(event.target.value);
            setRefused(false);
          }}
          autoFocus={autoFocus}
        />
        <button type="submit" className="app-search-box__button" aria-label="搜索">
          <IconSearch />
          {size === 'large' && <span>搜索</span>}
        </button>
      </form>
      <QueryLimitNote shown={cut} />
      <NothingSearchableNote shown={refused} />
      {recommended.length > 0 && (
        <p className="app-search-box__words">
          <span>热门搜索：</span>
          {recommended.map((word) => (
            <Link key={word} to={searchPath(word)}>
              {word}
            </Link>
          ))}
        </p>
      )}
    </div>
  );
}
