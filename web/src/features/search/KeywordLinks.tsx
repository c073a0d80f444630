// A document's or an article's keywords under its title, each a link to the search for that word
// (标签 of a Chinese document site): at most SHOWN_KEYWORDS, trimmed, de-duplicated, none empty.
import { Link } from 'react-router-dom';
import { shownKeywords } from '../../../../shared/keywords';
import { searchPath } from '../../../../shared/page-paths';
import './keyword-links.css';

export function KeywordLinks({
  keywords,
  pathOf = searchPath,
}: {
  /** The stored list, comma-separated (MOREDOC's `keywords`). */
  keywords: string | undefined;
  /** The search a word opens: the document search unless told (an article's, the article search). */
  pathOf?: (word: string) => string;
}) {
  const words = shownKeywords(keywords);
  if (!words.length) return null;
  return (
    <p className="app-keyword-links">
      <span className="app-keyword-links__label">关键词：</span>
      {words.map((word) => (
        <Link key={word} className="app-keyword-links__word" to={pathOf(word)}>
          {word}
        </Link>
      ))}
    </p>
  );
}
