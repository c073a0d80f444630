// Glyph outlines of MuPDF's SVG pages, written with the precision fonts are drawn with.
//
// It runs in the conversion worker threads (svg-pages.ts, for convert-worker.ts).
//
// With text drawn as paths, MuPDF defines each glyph once per page, `<path id="font_F_G" d="…"/>`,
// in em units (the `<use>` that places it scales it to the font size), and writes every
// coordinate as the shortest float that round-trips: `.040985109`. Those definitions are about
// nine tenths of a text page. Three decimals of an em are the grid of a Type 1 font (1/1000 em)
// and half a unit of a TrueType one (1/2048): at 48 px to the em (12 pt at 4× zoom) the
// difference is under 0.05 px, while the page is about 40 % smaller, raw and gzipped, and
// gzips faster. Only glyph definitions are touched: every other path keeps its digits, as its
// units depend on a transform that may scale it up.

const OPEN = Buffer.from('<path id="font_');
const D = Buffer.from('" d="');
const QUOTE = 0x22;
const DOT = 0x2e;
const DECIMALS = 3;

function isDigit(byte: number | undefined): boolean {
  if (byte === undefined) return false;
  return byte >= 0x30 && byte <= 0x39;
}

/**
 * Adds one to the last kept digit of the number written at `out[start, end)` (digits and its
 * point, no sign); returns the new end. All nines (`.9996`) become `1.000`: a 1 goes in front,
 * after a space when the number before would otherwise run into it (`.5.9996` → `.5 1.000`).
 */
function roundUp(out: Buffer, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) {
    const byte = out[i]!;
    if (byte === DOT) continue;
    if (byte !== 0x39) {
      out[i] = byte + 1;
      return end;
    }
    out[i] = 0x30;
  }
  const before = out[start - 1];
  const lead = isDigit(before) || before === DOT ? 2 : 1;
  out.copyWithin(start + lead, start, end);
  if (lead === 2) out[start] = 0x20;
  out[start + lead - 1] = 0x31;
  return end + lead;
}

/** Copies `bytes[start, end)` (path data) into `out` at `at`, each number rounded to DECIMALS decimals. */
function copyRounded(bytes: Buffer, start: number, end: number, out: Buffer, at: number): number {
  let o = at;
  let number = -1; // where the number being copied starts in `out`, -1 between numbers
  let decimals = -1; // digits kept after its point, -1 before the point
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (isDigit(byte)) {
      if (number < 0) number = o;
      if (decimals > DECIMALS) continue; // rounded already
      if (decimals === DECIMALS) {
        if (byte >= 0x35) o = roundUp(out, number, o);
        decimals++;
        continue;
      }
      if (decimals >= 0) decimals++;
    } else if (byte === DOT) {
      // A point after a fraction starts the next number, as in MuPDF's compact form (`.5.25`).
      if (number < 0 || decimals >= 0) number = o;
      decimals = 0;
    } else {
      number = -1;
      decimals = -1;
    }
    out[o++] = byte;
  }
  return o;
}

/**
 * The SVG `svg` (UTF-8 bytes, e.g. a view of WASM memory) with its glyph definitions' coordinates
 * rounded to three decimals of an em; the rest of the page byte for byte. A new buffer: the input is
 * not changed.
 */
export function trimGlyphOutlines(svg: Uint8Array): Buffer {
  const bytes = Buffer.from(svg.buffer, svg.byteOffset, svg.byteLength);
  // Room for a 1 carried in front of a number (`.9995` → ` 1.000`), never needed in practice.
  const out = Buffer.allocUnsafe(bytes.length + (bytes.length >> 2) + 16);
  let copied = 0;
  let o = 0;
  let from = 0;
  for (;;) {
    const open = bytes.indexOf(OPEN, from);
    if (open < 0) break;
    const idEnd = bytes.indexOf(QUOTE, open + OPEN.length);
    if (idEnd < 0) break;
    from = idEnd + 1;
    // Only `<path id="font_…" d="…"`, as MuPDF writes it: anything else is left as it is.
    if (bytes.compare(D, 0, D.length, idEnd, idEnd + D.length) !== 0) continue;
    const start = idEnd + D.length;
    const end = bytes.indexOf(QUOTE, start);
    if (end < 0) break;
    o += bytes.copy(out, o, copied, start);
    o = copyRounded(bytes, start, end, out, o);
    copied = end;
    from = end;
  }
  o += bytes.copy(out, o, copied);
  return out.subarray(0, o);
}
