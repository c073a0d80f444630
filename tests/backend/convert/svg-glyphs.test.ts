import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { trimGlyphOutlines } from '../../../backend/platform/convert/svg-glyphs';
import { fixture } from '../../helpers/documents';

// The conversion worker writes glyph outlines rounded to three decimals of an em (svg-glyphs.ts):
// pages about 40 % lighter that look the same; nothing but the glyph definitions changes.

const GLYPH = /<path id="font_[^"]*" d="([^"]*)"/g;

/** Page `n` of the Chinese fixture as MuPDF's SVG writer makes it in the worker (text as paths). */
function mupdfSvg(n: number): Buffer {
  const document = mupdf.Document.openDocument(readFileSync(fixture('chinese.pdf')), 'application/pdf');
  const page = document.loadPage(n);
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, 'svg', '');
  const device = writer.beginPage(page.getBounds());
  page.run(device, mupdf.Matrix.identity);
  writer.endPage();
  writer.close();
  const svg = Buffer.from(buffer.asUint8Array());
  writer.destroy();
  buffer.destroy();
  page.destroy();
  document.destroy();
  return svg;
}

const numbers = (path: string) => (path.match(/-?(\d+\.?\d*|\.\d+)(e-?\d+)?/g) ?? []).map(Number);

/** Grey pixels of an SVG rendered by librsvg (sharp) at twice its size. */
async function rendered(svg: Buffer): Promise<Buffer> {
  return sharp(svg, { density: 144 }).flatten({ background: '#fff' }).greyscale().raw().toBuffer();
}

describe('glyph outlines rounded to three decimals of an em', () => {
  let raw: Buffer;
  let trimmed: Buffer;
  beforeAll(() => {
    raw = mupdfSvg(0);
    trimmed = trimGlyphOutlines(raw);
  });

  it('makes a Chinese text page about 40 % lighter, raw and gzipped', () => {
    expect(raw.toString()).toMatch(GLYPH);
    expect(trimmed.length).toBeLessThan(raw.length * 0.7);
    expect(gzipSync(trimmed, { level: 4 }).length).toBeLessThan(gzipSync(raw, { level: 4 }).length * 0.75);
  });

  it('changes only the glyph definitions, each number by at most 1/2000 em', () => {
    const before = [...raw.toString().matchAll(GLYPH)].map((m) => m[1]!);
    const after = [...trimmed.toString().matchAll(GLYPH)].map((m) => m[1]!);
    expect(after).toHaveLength(before.length);
    expect(before.length).toBeGreaterThan(100);
    for (const [i, path] of after.entries()) {
      expect(path).not.toMatch(/\.\d{4}/);
      const was = numbers(before[i]!);
      const now = numbers(path);
      expect(now).toHaveLength(was.length);
      for (const [j, value] of now.entries()) expect(Math.abs(value - was[j]!)).toBeLessThanOrEqual(0.0005 + 1e-9);
    }
    // the rest of the page, byte for byte: the uses that place the glyphs, clips, the page size
    const rest = (svg: Buffer) => svg.toString().replace(GLYPH, '<glyph>');
    expect(rest(trimmed)).toBe(rest(raw));
  });

  it('draws the same page: closer to it than the page moved by 1/20 of a pixel', async () => {
    // the whole page 0.025 pt to the right: 0.05 px at 144 dpi
    const moved = Buffer.from(
      raw.toString().replace(/(<g clip-path[^]*)(<\/svg>)/, '<g transform="translate(0.025,0)">$1</g>$2'),
    );
    const [before, after, shifted] = await Promise.all([rendered(raw), rendered(trimmed), rendered(moved)]);
    expect(after.length).toBe(before.length);
    let ink = 0;
    let difference = 0;
    let shift = 0;
    for (let i = 0; i < before.length; i++) {
      if (before[i]! < 128) ink++;
      difference += Math.abs(before[i]! - after[i]!);
      shift += Math.abs(before[i]! - shifted[i]!);
    }
    expect(ink / before.length).toBeGreaterThan(0.01); // a page of text (1.5 % ink), not a blank one
    expect(shift).toBeGreaterThan(0);
    // measured: 0.04 grey levels on average against 0.16 for the moved page (0.10 if cut, not rounded)
    expect(difference).toBeLessThan(shift / 2);
  });

  it('does not change the bytes it was given', () => {
    expect(raw.equals(mupdfSvg(0))).toBe(true);
  });
});

describe('the rounding on hand-written paths', () => {
  const trim = (svg: string) => trimGlyphOutlines(Buffer.from(svg)).toString();

  it('rounds every number of a glyph, in MuPDF’s compact form too', () => {
    expect(
      trim('<path id="font_2_1" d="M.040985109 .12844849L-.0362159-1.5V.25463868.5.125C1e-05 2.123456e-3 7 8Z"/>'),
    ).toBe('<path id="font_2_1" d="M.041 .128L-.036-1.5V.255.5.125C1e-05 2.123e-3 7 8Z"/>');
  });

  it('carries a rounding up through the nines', () => {
    expect(trim('<path id="font_1_1" d="M.9996 1.9999L-.0995.99951 9.9995-.9997Z"/>')).toBe(
      '<path id="font_1_1" d="M1.000 2.000L-.100 1.000 10.000-1.000Z"/>',
    );
    // nothing runs into the number before: `.5` then `.9999` is not `.51.000`
    expect(trim('<path id="font_1_1" d="M.5.9999 1.5.99999"/>')).toBe('<path id="font_1_1" d="M.5 1.000 1.5 1.000"/>');
    expect(trim('<path id="font_1_1" d="' + '.9995'.repeat(1000) + '"/>')).toBe(
      '<path id="font_1_1" d="1.000' + ' 1.000'.repeat(999) + '"/>',
    );
  });

  it('leaves every other path, and attributes outside a glyph’s d, as they are', () => {
    const svg = [
      '<svg width="595.30398" height="841.8898">',
      '<path transform="matrix(1,0,0,-1,0,841.8898)" d="M0 .02812345H595.27512Z"/>',
      '<path id="font_1_3" fill-rule="evenodd" d="M.12345678 0Z"/>',
      '<path id="clip_1" d="M.12345678 0Z"/>',
      '<use xlink:href="#font_2_1" transform="matrix(18,0,0,-18,225.80011,92.900762)"/>',
      '<path id="font_1_4" d="M.98765432 0Z"/>',
      '</svg>',
    ].join('\n');
    expect(trim(svg)).toBe(svg.replace('M.98765432', 'M.988'));
  });

  it('keeps a page without glyphs, and an unfinished one, whole', () => {
    expect(trim('<svg><rect width="1.23456"/></svg>')).toBe('<svg><rect width="1.23456"/></svg>');
    expect(trim('<path id="font_1_1" d="M.123456')).toBe('<path id="font_1_1" d="M.123456');
    expect(trim('')).toBe('');
  });
});
