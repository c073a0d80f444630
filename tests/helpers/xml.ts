import { Window } from 'happy-dom';

// Markup for the tests: strict enough XML parsing (a document that is not well-formed throws,
// with the parser's message) and HTML as a browser without scripts parses it.

const window = new Window();

export function parseXml(text: string): Document {
  const parsed = new window.DOMParser().parseFromString(text, 'application/xml') as unknown as Document;
  const error = parsed.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`not well-formed XML: ${error.textContent}`);
  return parsed;
}

/** The text of every element named `tag`, in document order. */
export function texts(doc: Document, tag: string): string[] {
  return [...doc.getElementsByTagName(tag)].map((element) => element.textContent ?? '');
}

/** An HTML page as a browser without scripts parses it. */
export function parseHtml(text: string): Document {
  return new window.DOMParser().parseFromString(text, 'text/html') as unknown as Document;
}
