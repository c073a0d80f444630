// ui/plain-text.ts for the gateway's first screen (entry-server.tsx), where there is no
// DOMParser: the same text from htmlparser2 (the build swaps the module, see web/vite.config.ts).
// Like `textContent`, every text node counts, entities decoded.
import { Parser } from 'htmlparser2';

const BLOCKS = new Set(['br', 'p', 'div', 'li', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre']);

/** The text of `html`, with a line break after each block of BLOCKS when `blocks`. */
function textOf(html: string, blocks: boolean): string {
  let text = '';
  const parser = new Parser({
    ontext: (chunk) => (text += chunk),
    onclosetag: (name) => {
      if (blocks && BLOCKS.has(name)) text += '\n';
    },
  });
  parser.write(html);
  parser.end();
  return text;
}

export function plainText(html: string | undefined): string {
  if (!html) return '';
  return textOf(html, false).replace(/\s+/g, ' ').trim();
}

export function plainParagraphs(html: string | undefined): string[] {
  if (!html) return [];
  return textOf(html, true)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}
