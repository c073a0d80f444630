// Run by scan-page.test.ts in a process of its own (node --expose-gc): the scan check's device
// over pages whose drawing hands it many MuPDF objects, each page's display list destroyed and
// the garbage collected after every round, as a conversion thread does over a long document.
// Prints `ok` when MuPDF still works after it; a wrapper dropped once too often crashes the
// process or leaves it spinning in a corrupted heap (the parent's timeout then ends it).
import * as mupdf from 'mupdf';
import { RENDER_SETTINGS } from '../../../backend/platform/convert/converter';
import { scanJpeg } from '../../../backend/platform/convert/scan-page';
import { illustratedPageWith, scatteredStrokes } from '../../helpers/documents';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const gradients = Array.from({ length: 300 }, (_, i) => `q ${i % 500} ${i % 700} 20 20 re W n /Sh0 sh Q`);

const pdfs = [
  await illustratedPageWith(scatteredStrokes(6_000)),
  await illustratedPageWith(gradients.join('\n'), (document, resources) => {
    const axial = document.newDictionary();
    axial.put('ShadingType', 2);
    axial.put('ColorSpace', document.newName('DeviceRGB'));
    axial.put('Coords', [0, 0, 100, 100]);
    axial.put('Function', document.addObject({ FunctionType: 2, Domain: [0, 1], C0: [1, 0, 0], C1: [0, 0, 1], N: 1 }));
    resources.put('Shading', document.addObject({ Sh0: document.addObject(axial) }));
  }),
];

for (let round = 0; round < 20; round++) {
  for (const pdf of pdfs) {
    const document = mupdf.Document.openDocument(pdf, 'application/pdf');
    const page = document.loadPage(0);
    const list = page.toDisplayList();
    if ((await scanJpeg(page, list, page.getBounds(), RENDER_SETTINGS)) !== null) throw new Error('taken for a scan');
    list.destroy();
    page.destroy();
    document.destroy();
    gc();
    await new Promise((resolve) => setTimeout(resolve, 1));
    mupdf.emptyStore();
  }
}
const last = mupdf.Document.openDocument(pdfs[0]!, 'application/pdf')
  .loadPage(0)
  .toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
process.stdout.write(last.getWidth() === 596 ? 'ok' : `width ${last.getWidth()}`);
