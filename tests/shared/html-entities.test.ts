import { describe, expect, it } from 'vitest';
import { decodeHtmlEntities } from '../../shared/html-entities';

describe('decodeHtmlEntities', () => {
  it('decodes the named entities of escaped text and numeric ones, decimal and hexadecimal', () => {
    expect(decodeHtmlEntities('&lt;b&gt; &amp; &quot;书&quot; &apos;a&#39; &#x27;b&#X4E66;&nbsp;c')).toBe(
      `<b> & "书" 'a' 'b书 c`,
    );
  });

  it('decodes once: an escaped entity stays an entity', () => {
    expect(decodeHtmlEntities('&amp;lt; &amp;amp;')).toBe('&lt; &amp;');
  });

  it('leaves unknown names, names of object properties and code points out of range as written', () => {
    expect(decodeHtmlEntities('&copy2; &constructor; &toString; &#0; &#x110000; & b;')).toBe(
      '&copy2; &constructor; &toString; &#0; &#x110000; & b;',
    );
  });
});
