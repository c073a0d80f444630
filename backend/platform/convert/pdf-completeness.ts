// Whether a PDF MuPDF had to repair still holds every page's content. A truncated upload (a
// download or copy cut short) has no xref at its end: MuPDF rebuilds one from the objects it
// finds, and the objects past the cut are simply absent. A reference to an absent object reads
// as null, so such a page opens without error as a blank US Letter page (a page without its
// dictionary has no MediaBox). The conversion refuses the file instead (converter.ts), naming the
// first page whose objects are missing. A repaired file whose objects are all there converts.
//
// Types only: the worker's bundle must load mupdf after mupdf-handle.ts (which says why).
import type * as mupdf from 'mupdf';

/**
 * The first page (1-based) of a repaired PDF whose objects are missing, page 1 when the repair
 * found no page at all (the page tree was past the cut); null when none is, or MuPDF made no repair.
 */
export function firstIncompletePage(document: mupdf.Document): number | null {
  const pdf = document.asPDF();
  if (!pdf?.wasRepaired()) return null;
  const pages = pdf.countPages();
  if (pages === 0) return 1;
  for (let index = 0; index < pages; index++) {
    if (!pageIsWhole(pdf.findPage(index))) return index + 1;
  }
  return null;
}

/**
 * The page's dictionary, the streams it draws with (`Contents`), and the fonts and images its
 * resources name: each must be there. Deeper objects (a font's embedded program) are not looked
 * for: MuPDF draws such a page with a substitute, its text intact.
 */
function pageIsWhole(page: mupdf.PDFObject): boolean {
  if (!page.isDictionary()) return false;
  const contents = page.get('Contents');
  if (contents.isArray()) {
    for (let i = 0; i < contents.length; i++) if (!contents.get(i).isStream()) return false;
  } else if (!contents.isNull() && !contents.isStream()) return false;

  const resources = page.getInheritable('Resources');
  if (isMissing(resources)) return false;
  if (!resources.isDictionary()) return true;
  for (const kind of ['Font', 'XObject']) {
    const named = resources.get(kind);
    if (isMissing(named)) return false;
    if (!named.isDictionary()) continue;
    let whole = true;
    named.forEach((value) => {
      if (isMissing(value)) whole = false;
    });
    if (!whole) return false;
  }
  return true;
}

/** A reference to an object the file does not hold: it reads as null. */
function isMissing(value: mupdf.PDFObject): boolean {
  return value.isIndirect() && value.resolve().isNull();
}
