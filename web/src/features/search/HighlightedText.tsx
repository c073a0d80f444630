// Text with the searched words marked. The text is never parsed as HTML: it is split around
// the words (case-insensitively) and each occurrence is wrapped in <mark>.

/** The words of a query: split on spaces, longest first so that a longer word wins over its parts. */
export function queryWords(query: string): string[] {
  const words = query.split(/\s+/).map((w) => w.trim()).filter(Boolean);
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function HighlightedText({ text, words }: { text: string; words: readonly string[] }) {
  if (words.length === 0 || text === '') return <>{text}</>;
  const pattern = new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'gi');
  const lowered = new Set(words.map((w) => w.toLowerCase()));
  return (
    <>
      {text.split(pattern).map((part, index) =>
        lowered.has(part.toLowerCase()) ? <mark key={index}>{part}</mark> : part,
      )}
    </>
  );
}
