// Text that arrives as HTML (a search hit's highlight, an article body made plain) read back as
// characters, in one pass, so that an escaped `&amp;lt;` stays `&lt;` and is not decoded twice.

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** `&lt;b&gt; &amp; &#39;` → `<b> & '`: the named entities above and every numeric one; any other stays as written. */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z0-9]+);/gi, (entity, name: string) => {
    if (Object.hasOwn(NAMED, name)) return NAMED[name]!;
    const code = /^#x/i.test(name)
      ? parseInt(name.slice(2), 16)
      : name.startsWith('#')
        ? parseInt(name.slice(1), 10)
        : NaN;
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}
