// A Chinese text PDF whose pages all differ, for the conversion benchmark: prose of the search
// benchmark's corpus laid out by MuPDF on A4 pages in its built-in CJK font (Droid Sans
// Fallback, embedded), 12 pt. Unlike copies of a few pages, each page brings glyphs of its own
// and shares the common ones, as the pages of a real book do.
import * as mupdf from 'mupdf';
import { ChineseCorpus } from './chinese-corpus';

const A4: [number, number] = [595, 842];

export function chineseProsePdf(pages: number): Buffer {
  const corpus = new ChineseCorpus(7);
  let text = '';
  for (let id = 1; text.length < pages * 2_000; id++) {
    const document = corpus.document(id, 6_000);
    text += `${document.title}\n\n${document.content}\n\n`;
  }
  const source = mupdf.Document.openDocument(Buffer.from(text), 'text/plain');
  source.layout(A4[0], A4[1], 12);
  if (source.countPages() < pages) throw new Error(`the text fills ${source.countPages()} pages, not ${pages}`);
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', 'compress');
  for (let n = 0; n < pages; n++) {
    const page = source.loadPage(n);
    page.run(writer.beginPage(page.getBounds()), mupdf.Matrix.identity);
    writer.endPage();
    page.destroy();
  }
  writer.close();
  const pdf = Buffer.from(out.asUint8Array());
  writer.destroy();
  out.destroy();
  source.destroy();
  return pdf;
}
