/** Admin- or server-entered HTML shown as plain text: no markup from the API reaches the DOM. */
export function plainText(html: string | undefined): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const BLOCKS = 'br, p, div, li, tr, h1, h2, h3, h4, h5, h6, blockquote, pre';

/** Like `plainText`, but one string per line or block of the HTML (admin statements). */
export function plainParagraphs(html: string | undefined): string[] {
  if (!html) return [];
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const block of doc.body.querySelectorAll(BLOCKS)) block.after('\n');
  return (doc.body.textContent ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
}
