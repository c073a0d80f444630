/** Admin- or server-entered HTML shown as plain text: no markup from the API reaches the DOM. */
export function plainText(html: string | undefined): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
