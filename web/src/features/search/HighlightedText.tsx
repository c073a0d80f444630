// Search hits with their matches marked. The server's highlights (`title_highlight`,
// `snippet`) are HTML with the text escaped and the matches in <em>…</em>; they are never
// inserted as HTML: split at the <em> tags, the entities decoded, each match a <mark>.

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#39': "'",
  '#x27': "'",
};

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39|#x27);/g, (_match, name: string) => ENTITIES[name] ?? '');
}

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
    else if (part !== '') segments.push({ text: decodeEntities(part), match });
  }
  return segments;
}

export function HighlightedText({ html }: { html: string }) {
  return (
    <>
      {highlightSegments(html).map((segment, index) =>
        segment.match ? <mark key={index}>{segment.text}</mark> : segment.text,
      )}
    </>
  );
}
