import { readFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { trimGlyphOutlines } from '../../../backend/platform/convert/svg-glyphs';
import { SvgPages } from '../../../backend/platform/convert/svg-pages';
import { fixture } from '../../helpers/documents';

// The conversion worker draws a slice's pages through one SVG device, so that a glyph is
// outlined once for the slice, then cuts one standalone SVG a page out of it (svg-pages.ts).

const opened: { destroy(): void }[] = [];
afterAll(() => opened.reverse().forEach((item) => item.destroy()));

interface OpenPage {
  page: mupdf.Page;
  list: mupdf.DisplayList;
  bounds: mupdf.Rect;
}

function pagesOf(pdf: Buffer): OpenPage[] {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  opened.push(document);
  return Array.from({ length: document.countPages() }, (_, n) => {
    const page = document.loadPage(n);
    const list = page.toDisplayList();
    opened.push(page, list);
    return { page, list, bounds: page.getBounds() };
  });
}

/** The pages' SVGs, drawn through one device the way the worker draws a slice. */
function svgPages(pages: OpenPage[]): Buffer[] {
  const svgs = new SvgPages();
  try {
    for (const { page, list, bounds } of pages) svgs.add(page, list, bounds);
    return svgs.finish();
  } finally {
    svgs.destroy();
  }
}

/** The page through a device of its own, glyphs rounded as the worker rounds them. */
function alone({ page, bounds }: OpenPage): Buffer {
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, 'svg', '');
  page.run(writer.beginPage(bounds), mupdf.Matrix.identity);
  writer.endPage();
  writer.close();
  const svg = trimGlyphOutlines(buffer.asUint8Array());
  writer.destroy();
  buffer.destroy();
  return svg;
}

/** Grey pixels of an SVG as librsvg (sharp) draws it. */
function drawn(svg: Buffer): Promise<Buffer> {
  return sharp(svg, { density: 96 }).flatten({ background: '#fff' }).greyscale().raw().toBuffer();
}

const idsDefined = (svg: string) => new Set(Array.from(svg.matchAll(/ id="([^"]+)"/g), (m) => m[1]));
const idsUsed = (svg: string) => new Set(Array.from(svg.matchAll(/(?:href="#|url\(#)([^")]+)/g), (m) => m[1]));
const header = (svg: string) => svg.slice(0, svg.indexOf('>\n') + 2);

/** A PDF whose two pages draw the same image object, the second page A5 landscape. */
async function imagePdf(): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c03030' } })
    .png()
    .toBuffer();
  const document = new mupdf.PDFDocument();
  const image = document.addImage(new mupdf.Image(png));
  const font = document.addSimpleFont(new mupdf.Font('Helvetica'));
  const resources = document.addObject({ XObject: { Im0: image }, Font: { F1: font } });
  const draw = 'q 120 0 0 120 60 60 cm /Im0 Do Q BT /F1 14 Tf 60 30 Td (Logo) Tj ET';
  document.insertPage(-1, document.addPage([0, 0, 595, 842], 0, resources, draw));
  document.insertPage(-1, document.addPage([0, 0, 595, 420], 0, resources, draw));
  const pdf = Buffer.from(document.saveToBuffer('compress').asUint8Array());
  document.destroy();
  return pdf;
}

describe('pages drawn through one SVG device', () => {
  const chinese = pagesOf(readFileSync(fixture('chinese.pdf')));

  it('gives each page the SVG its own device draws', async () => {
    const together = svgPages(chinese);
    expect(together).toHaveLength(3);
    for (const [n, page] of chinese.entries()) {
      const own = alone(page);
      const [a, b] = await Promise.all([drawn(own), drawn(together[n]!)]);
      expect(b.length).toBe(a.length);
      expect(b.equals(a), `page ${n + 1}`).toBe(true);
      expect(header(together[n]!.toString())).toBe(header(own.toString()));
    }
  });

  it('cuts out pages that stand alone: every id a page refers to is defined in it, no marker left', () => {
    for (const svg of svgPages(chinese).map(String)) {
      const defined = idsDefined(svg);
      const used = idsUsed(svg);
      expect(used.size).toBeGreaterThan(100); // glyphs and the page's clip
      for (const id of used) expect(defined.has(id), id).toBe(true);
      expect(svg).not.toMatch(/moredoc-page-|inkscape:label/);
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg.endsWith('</g>\n</svg>\n')).toBe(true);
    }
  });

  it('outlines a glyph once for the run: the later pages use the definitions the first page made', () => {
    const [first, second] = svgPages(chinese).map(String);
    const glyphs = (svg: string) =>
      new Map(Array.from(svg.matchAll(/<path id="(font_[^"]+)" d="([^"]+)"/g), (m) => [m[1]!, m[2]!]));
    const one = glyphs(first!);
    const two = glyphs(second!);
    const shared = [...two.keys()].filter((id) => one.has(id));
    // one device numbers its fonts and clips once: page 2 refers to page 1's glyph ids and numbers its clip after page
    // 1's
    expect(shared.length).toBeGreaterThan(30); // 47 of page 2's glyphs
    for (const id of shared) expect(two.get(id)).toBe(one.get(id));
    const clips = (svg: string) => Array.from(svg.matchAll(/<clipPath id="([^"]+)"/g), (m) => m[1]);
    expect(clips(second!).some((id) => clips(first!).includes(id))).toBe(false);
  });

  it('keeps each page’s size, and gives an image two pages draw to both', async () => {
    const pages = pagesOf(await imagePdf());
    const together = svgPages(pages).map(String);
    const own = pages.map((page) => String(alone(page)));
    expect(header(together[0]!)).toContain('width="595" height="842"');
    expect(header(together[1]!)).toContain('width="595" height="420"');
    for (const [n, svg] of together.entries()) {
      expect(header(svg)).toBe(header(own[n]!));
      expect(svg).toMatch(/<image [^>]*xlink:href="data:image\/png;base64,/);
      for (const id of idsUsed(svg)) expect(idsDefined(svg).has(id), `page ${n + 1}: ${id}`).toBe(true);
      const [a, b] = await Promise.all([drawn(Buffer.from(own[n]!)), drawn(Buffer.from(svg))]);
      expect(b.equals(a), `page ${n + 1}`).toBe(true);
    }
  });

  it('draws nothing for no pages, and a page alone as a device of its own draws it', async () => {
    expect(svgPages([])).toEqual([]);
    const [one] = svgPages([chinese[0]!]);
    expect(String(one)).not.toContain('inkscape:label');
    const [a, b] = await Promise.all([drawn(alone(chinese[0]!)), drawn(one!)]);
    expect(b.equals(a)).toBe(true);
  });
});
