import { decodeHtmlEntities } from '../../../../shared/html-entities';
import './highlighted-text.css';

// Search hits with their matches marked. The server's highlights (`title_highlight`,
// `snippet`) are HTML with the text escaped and the matches in <em>…</em>; they are never
// inserted as HTML: split at the <em> tags, the entities decoded, each match a <mark>, marked
// the same in every list of hits (documents, articles).

export interface Segment {
  text: string;
  match: boolean;
}

/** `a <em>b</em> &amp; c` → `a `, `b` (a match), ` & c`. */
export function highlightSegments(html: string): Segment[] {
  const segments: Segment[] = [];
  let match = false;
  for (const part of html.split(/(<em>|<\/em>)/)) {
    if (part === '<em>') match = true;
    else if (part === '</em>') match = false;
    else if (part !== '') segments.push({ text: decodeHtmlEntities(part), match });
  }
  return segments;
}

export function HighlightedText({ html }: { html: string }) {
  return (
    <>
      {highlightSegments(html).map((segment, index) =>
        segment.match ? (
          <mark key={index} className="app-hit">
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
