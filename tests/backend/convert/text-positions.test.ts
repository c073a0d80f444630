// The characters' positions of a page (text-positions.ts): read from MuPDF's structured text
// field by field (the worker threads load mupdf-handle.ts before mupdf, as this file does), the
// same as from MuPDF's XML of it, and the text the same as StructuredText.asText().
import '../../../backend/platform/convert/mupdf-handle';
import { readFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { describe, expect, it } from 'vitest';
import { textAndPositionsFromXml, textAndPositionsOf } from '../../../backend/platform/convert/text-positions';
import { fixture } from '../../helpers/documents';

describe("the positions of a page's characters", () => {
  it.each(['chinese.pdf', 'chinese.epub', 'chinese.txt', 'scanned.pdf'])(
    "of %s are the same read field by field as from the XML, with asText()'s text",
    (name) => {
      const document = mupdf.Document.openDocument(readFileSync(fixture(name)), name);
      if (!name.endsWith('.pdf')) document.layout(420, 595, 12);
      expect(globalThis.$libmupdf_wasm_Module).toHaveProperty('_wasm_stext_char_get_quad');
      for (let n = 0; n < document.countPages(); n++) {
        const page = document.loadPage(n);
        const list = page.toDisplayList();
        const bounds = page.getBounds();
        const stext = list.toStructuredText('');
        const fast = textAndPositionsOf(mupdf, list, bounds);
        expect(fast).toEqual(textAndPositionsFromXml(mupdf, list, bounds));
        expect(fast.text).toBe(stext.asText());
        const chars = fast.positions.l.reduce((sum, line) => sum + line[4].length, 0);
        if (name !== 'scanned.pdf') expect(chars).toBeGreaterThan(0);
        for (const line of fast.positions.l) expect(line[5]).toHaveLength(line[4].length);
        stext.destroy();
        list.destroy();
        page.destroy();
      }
      document.destroy();
    },
  );
});
