// Find in this document: a search box under the reader's toolbar and the lines that hold the
// words, by page ("第 14 页" and the line, the words marked). Choosing one takes the reader to
// its page, where the words are marked on the page image (PageTextLayer). The server looks only
// through the pages this reader may read (FindInDocument).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FoundLine } from '../../../../shared/types/document';
import { scrollWithin } from '../../kit/visibility/scroll-within';
import { IconArrowDown, IconArrowUp } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { findInDocumentQuery } from './page-text-api';
import { PHONE_WIDTH } from './PageThumbnails';

/**
 * How long typing must pause before the words are looked for: short, so that the hits are
 * listed within 150 ms of the last key (111 ms median, bench/README.md). A word typed letter by
 * letter may be looked for at several letters (each answer takes the server under 10 ms); text
 * still being composed in an input method (pinyin before its characters are chosen) never is.
 */
export const TYPING_PAUSE_MS = 50;

/** A hit chosen: its page, and which of that page's hits it is. */
export interface ChosenHit {
  words: string;
  page: number;
  occurrence: number;
  index: number;
}

/**
 * Characters of a hit's line kept before its words: the line shows on one row, cut at its end,
 * so that the words far into a long line (a paragraph of a text file) stay in sight on a phone,
 * and the hits of one line are told apart.
 */
export const HIT_LEAD = 6;

function HitLine({ hit }: { hit: FoundLine }) {
  const text = hit.text ?? '';
  const start = hit.start ?? 0;
  const end = start + (hit.length ?? 0);
  // A cut never splits a character outside the BMP (a rare CJK one) in two, nor a word of a
  // Latin script (it starts at the word's start instead).
  let cut = start - HIT_LEAD - (/[\uDC00-\uDFFF]/.test(text.charAt(start - HIT_LEAD)) ? 1 : 0);
  while (cut > 0 && /\w\w/.test(text.slice(cut - 1, cut + 1))) cut -= 1;
  const before = cut > 1 ? `…${text.slice(cut, start)}` : text.slice(0, start);
  return (
    <span className="app-find__line">
      {before}
      <mark>{text.slice(start, end)}</mark>
      {text.slice(end)}
    </span>
  );
}

/** The hit at `index` with its place among its page's hits. */
function chosen(hits: readonly FoundLine[], index: number, words: string): ChosenHit {
  const page = hits[index]?.page ?? 1;
  const occurrence = hits.slice(0, index).filter((hit) => hit.page === page).length;
  return { words, page, occurrence, index };
}

export function FindInDocument({
  documentId,
  initialWords = '',
  linkNote,
  current,
  onChoose,
  onWords,
  onClose,
}: {
  documentId: number;
  initialWords?: string;
  /**
   * Why the page the link that opened the reader with `initialWords` asked for (a site-search
   * hit) is not shown, past the free preview: said in place of "未找到" in the pages this reader
   * may read, until other words are typed.
   */
  linkNote?: string;
  current: ChosenHit | null;
  onChoose: (hit: ChosenHit) => void;
  /** The words looked for changed (typed, or cleared: ''): the pages mark these from now on. */
  onWords: (words: string) => void;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState(initialWords);
  const [composing, setComposing] = useState(false);
  const [words, setWords] = useState(initialWords.trim());
  useEffect(() => {
    if (composing) return;
    const timer = setTimeout(() => setWords(typed.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, composing]);
  useEffect(() => onWords(words), [words, onWords]);
  const found = useQuery(findInDocumentQuery(documentId, words));
  const hits = words && found.data ? (found.data.hit ?? []) : [];
  const total = found.data?.total ?? 0;
  const note = linkNote !== undefined && words === initialWords.trim() ? linkNote : undefined;
  // Which hit the reader shows, as a browser's find says it: 上一处 / 下一处 move through them.
  const at =
    current && current.words === words && current.index >= 0 && hits.length > 0 ? `第 ${current.index + 1} 处，` : '';
  // The current hit's row kept in view in the list (30vh high on a phone) as 上一处 and 下一处 move
  // it: the list alone scrolls, not the page (its row is in the reader's toolbar).
  const hitList = useRef<HTMLOListElement>(null);
  const currentIndex = current && current.words === words ? current.index : -1;
  // On a phone the list (30vh, in the sticky toolbar) would cover most of the page a hit opened:
  // it folds once a hit is chosen from it, the words and 第 N 处 staying with 上一处 / 下一处, and
  // 查看查找结果 opens it again. Other words list their hits again.
  const [folded, setFolded] = useState(false);
  const [foldedFor, setFoldedFor] = useState(words);
  if (foldedFor !== words) {
    setFoldedFor(words);
    setFolded(false);
  }
  const listShown = hits.length > 0 && !folded;
  // Where the keyboard goes as the list folds or opens (the row it was on goes with the list,
  // the button with the list's coming back): never to the page's top.
  const focusNext = useRef<'reopen' | 'list' | null>(null);
  const status = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const list = hitList.current;
    const row = list?.querySelector<HTMLElement>('.app-find__hit--current');
    if (list && row) scrollWithin(list, row);
  }, [currentIndex, hits.length, listShown]);
  useLayoutEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === 'reopen') status.current?.querySelector('button')?.focus();
    else if (next === 'list')
      (
        hitList.current?.querySelector<HTMLElement>('.app-find__hit--current') ??
        hitList.current?.querySelector<HTMLElement>('.app-find__hit')
      )?.focus();
  }, [listShown]);
  // The live region is filled only from the frame after the bar's first, so that the words a link
  // opened it with (their answer perhaps cached) are read out too.
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setOpened(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const count = found.isPending
    ? '查找中…'
    : total === 0
      ? '未找到'
      : total > hits.length
        ? `${at}共 ${total} 处，列出前 ${hits.length} 处`
        : `${at}共 ${total} 处`;
  const readable =
    found.data?.readable && found.data.readable > 0 ? `（已查找可阅读的 ${found.data.readable} 页）` : '';
  const summary =
    !opened || !words
      ? ''
      : note !== undefined
        ? `${note}${total > 0 ? `；可阅读的页中共 ${total} 处` : ''}`
        : `${count}${readable}`;
  const step = (direction: 1 | -1) => {
    if (!hits.length) return;
    onChoose(chosen(hits, (currentIndex + direction + hits.length) % hits.length, words));
  };

  return (
    <div className="app-find" role="search" aria-label="在文档中查找">
      <form
        // Escape closes the bar, as a browser's own find does.
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          onClose();
        }}
        className="app-find__form"
        onSubmit={(event) => {
          event.preventDefault();
          setWords(typed.trim());
          step(1);
        }}
      >
        <input
          type="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onCompositionStart={() => setComposing(true)}
          onCompositionEnd={(event) => {
            setComposing(false);
            setTyped(event.currentTarget.value);
          }}
          placeholder="查找文档中的文字"
          aria-label="查找文档中的文字"
          maxLength={100}
          autoFocus
        />
        <Button
          size="small"
          icon={<IconArrowUp />}
          onClick={() => step(-1)}
          disabled={!hits.length}
          aria-label="上一处"
        />
        <Button
          size="small"
          icon={<IconArrowDown />}
          onClick={() => step(1)}
          disabled={!hits.length}
          aria-label="下一处"
        />
        <Button size="small" onClick={onClose}>
          关闭
        </Button>
      </form>
      {/* One live region from the moment the bar opens, filled once there are words: a region
          that comes already filled (a cached answer, the words of a link) is not read out. */}
      <div ref={status} className="app-find__status">
        <p className="app-find__summary" aria-live="polite" aria-atomic="true">
          {summary}
        </p>
        {hits.length > 0 && folded && (
          <Button
            size="small"
            aria-expanded={false}
            onClick={() => {
              focusNext.current = 'list';
              setFolded(false);
            }}
          >
            查看查找结果
          </Button>
        )}
      </div>
      {listShown && (
        <ol ref={hitList} className="app-find__hits" aria-label="查找结果">
          {hits.map((hit, index) => (
            <li key={index}>
              <button
                type="button"
                className={`app-find__hit${currentIndex === index ? ' app-find__hit--current' : ''}`}
                onClick={() => {
                  onChoose(chosen(hits, index, words));
                  if (window.matchMedia(PHONE_WIDTH).matches) {
                    focusNext.current = 'reopen';
                    setFolded(true);
                  }
                }}
              >
                <span className="app-find__page">第 {hit.page} 页</span>
                <HitLine hit={hit} />
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
