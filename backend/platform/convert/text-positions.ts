// Where each character of a page is (the reader's find marks and its selectable text layer),
// from MuPDF's structured text, which gives every character its quad. It runs in the
// conversion worker threads (convert-worker.ts); the converter reads only positionsFile.
//
// A page's positions are one JSON object, gzip-compressed (`<n>.pos.gz`):
//   { v: 1, w, h, l: [[x0, y0, x1, y1, text, steps, vertical?], …] }
// w, h: the page's size in points; each line of text its box and its characters, every
// coordinate in tenths of a point from the page's top left. `steps[i]` is how far character i
// starts after character i − 1 (the first: after x0, or y0 in a vertical line); a character
// ends where the next starts, the last at x1 (y1). Tenths of a point are a twentieth of a
// pixel at 200 % zoom, and small integers that gzip well: a Chinese text page of 1,000
// characters is about 3–4 KB.

import { gzipSync } from 'node:zlib';
import type * as Mupdf from 'mupdf';
import type { PagePositions, PositionsLine } from '../../../shared/types/document';

export type { PagePositions, PositionsLine } from '../../../shared/types/document';

type Bounds = readonly number[];

/** A line of text being read: its box, its characters, and where each UTF-16 unit starts. */
interface LineInProgress {
  bbox: number[];
  vertical: boolean;
  text: string;
  starts: number[];
}

/** MuPDF's structured-text accessors in its WebAssembly module (mupdf-handle.ts). */
type StextAccessor =
  | '_wasm_stext_page_get_first_block'
  | '_wasm_stext_block_get_next'
  | '_wasm_stext_block_get_type'
  | '_wasm_stext_block_get_first_line'
  | '_wasm_stext_line_get_next'
  | '_wasm_stext_line_get_bbox'
  | '_wasm_stext_line_get_dir'
  | '_wasm_stext_line_get_wmode'
  | '_wasm_stext_line_get_first_char'
  | '_wasm_stext_char_get_next'
  | '_wasm_stext_char_get_c'
  | '_wasm_stext_char_get_quad';
type StextAccessors = { HEAPF32: Float32Array } & Record<StextAccessor, (pointer: number) => number>;

export const POSITIONS_VERSION = 1;

/** The file of page n's positions. */
export function positionsFile(n: number): string {
  return `${n}.pos.gz`;
}

const tenths = (value: number): number => Math.round(value * 10);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An XML attribute's value as text: MuPDF writes characters as `&#xNNNN;` or the five entities. */
function unescapeXml(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) =>
    entity[0] === '#'
      ? String.fromCodePoint(entity[1] === 'x' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)))
      : ENTITIES[entity]!,
  );
}

const numbers = (value: string): number[] => value.trim().split(/\s+/).map(Number);

/** MuPDF's structured-text accessors, when mupdf-handle.ts was loaded before mupdf. */
function accessors(): StextAccessors | null {
  const wasm = globalThis.$libmupdf_wasm_Module as StextAccessors | undefined;
  return wasm && typeof wasm._wasm_stext_char_get_quad === 'function' && wasm.HEAPF32 ? wasm : null;
}

/**
 * The text of a page drawn by `list` (a MuPDF DisplayList), exactly as StructuredText.asText()
 * gives it, and its positions. `bounds`: the page's [x0, y0, x1, y1]. From the structured
 * text's own fields (a text page of 1,866 characters: 2 ms more than its text alone), else
 * from MuPDF's XML of it (57 ms).
 */
export function textAndPositionsOf(
  mupdf: typeof Mupdf,
  list: Mupdf.DisplayList,
  bounds: Bounds,
): { text: string; positions: PagePositions } {
  const wasm = accessors();
  if (!wasm) return textAndPositionsFromXml(mupdf, list, bounds);
  const stext = list.toStructuredText('');
  try {
    return { text: stext.asText(), positions: walkPositions(wasm, stext.pointer as number, bounds) };
  } finally {
    stext.destroy();
  }
}

/** The text of a page drawn by `list`, as textAndPositionsOf gives it, without the positions. */
export function textOf(list: Mupdf.DisplayList): string {
  const stext = list.toStructuredText('');
  try {
    return stext.asText();
  } finally {
    stext.destroy();
  }
}

/**
 * The positions of a structured text page, read field by field (what StructuredText.walk() reads, less its objects).
 */
function walkPositions(wasm: StextAccessors, page: number, bounds: Bounds): PagePositions {
  const [left = 0, top = 0, right = 0, bottom = 0] = bounds;
  const floats = (pointer: number, count: number): number[] =>
    Array.from(wasm.HEAPF32.subarray(pointer >> 2, (pointer >> 2) + count));
  const lines: PositionsLine[] = [];
  for (let block = wasm._wasm_stext_page_get_first_block(page); block; block = wasm._wasm_stext_block_get_next(block)) {
    if (wasm._wasm_stext_block_get_type(block) !== 0) continue;
    for (let at = wasm._wasm_stext_block_get_first_line(block); at; at = wasm._wasm_stext_line_get_next(at)) {
      const bbox = floats(wasm._wasm_stext_line_get_bbox(at), 4);
      const direction = floats(wasm._wasm_stext_line_get_dir(at), 2);
      const vertical = wasm._wasm_stext_line_get_wmode(at) === 1 || Math.abs(direction[1]!) > Math.abs(direction[0]!);
      const line: LineInProgress = { bbox, vertical, text: '', starts: [] };
      for (let char = wasm._wasm_stext_line_get_first_char(at); char; char = wasm._wasm_stext_char_get_next(char)) {
        const c = String.fromCodePoint(wasm._wasm_stext_char_get_c(char));
        const quad = wasm._wasm_stext_char_get_quad(char) >> 2;
        const heap = wasm.HEAPF32;
        const start = vertical ? Math.min(heap[quad + 1]!, heap[quad + 3]!) : Math.min(heap[quad]!, heap[quad + 4]!);
        for (let unit = 0; unit < c.length; unit++) line.starts.push(start);
        line.text += c;
      }
      if (line.text.trim() !== '') lines.push(encodeLine(line, left, top));
    }
  }
  return {
    v: POSITIONS_VERSION,
    w: Math.round((right - left) * 100) / 100,
    h: Math.round((bottom - top) * 100) / 100,
    l: lines,
  };
}

// MuPDF's structured text as XML (its `stext` document writer), read once for the page's text
// and its positions: one call into MuPDF per page, but printing and reading the XML costs about
// 30 µs a character. Walking a StructuredText through mupdf.js instead costs a Font object and
// a finalizer per character (24 ms for a page of 244).
const TOKEN = /<line bbox="([^"]*)" wmode="(\d)" dir="([^"]*)"|<char c="([^"]*)" quad="([^"]*)"|<\/line>|<\/block>/g;

/** textAndPositionsOf through MuPDF's XML (a line break after each line and after each block, as asText()). */
export function textAndPositionsFromXml(
  mupdf: typeof Mupdf,
  list: Mupdf.DisplayList,
  bounds: Bounds,
): { text: string; positions: PagePositions } {
  const buffer = new mupdf.Buffer();
  try {
    const writer = new mupdf.DocumentWriter(buffer, 'stext', '');
    try {
      const device = writer.beginPage(bounds as Mupdf.Rect);
      list.run(device, mupdf.Matrix.identity);
      writer.endPage();
    } finally {
      writer.close();
      writer.destroy();
    }
    return readStructuredText(buffer.asString(), bounds);
  } finally {
    buffer.destroy();
  }
}

/** The text and positions of one page of MuPDF's structured text XML. */
export function readStructuredText(xml: string, bounds: Bounds): { text: string; positions: PagePositions } {
  const [left = 0, top = 0, right = 0, bottom = 0] = bounds;
  const lines: PositionsLine[] = [];
  let text = '';
  let line: LineInProgress | null = null;
  for (const match of xml.matchAll(TOKEN)) {
    if (match[1] !== undefined) {
      const direction = numbers(match[3]!);
      // A line is written vertically when MuPDF says so, or when its baseline runs down the page.
      const vertical = match[2] === '1' || Math.abs(direction[1]!) > Math.abs(direction[0]!);
      line = { bbox: numbers(match[1]), vertical, text: '', starts: [] };
    } else if (match[4] !== undefined) {
      const c = unescapeXml(match[4]);
      text += c;
      if (!line) continue;
      const quad = numbers(match[5]!);
      const start = line.vertical ? Math.min(quad[1]!, quad[3]!) : Math.min(quad[0]!, quad[4]!);
      // A character outside the Basic Multilingual Plane is two UTF-16 units, both starting there.
      for (let unit = 0; unit < c.length; unit++) line.starts.push(start);
      line.text += c;
    } else {
      text += '\n';
      if (match[0] === '</line>' && line && line.text.trim() !== '') lines.push(encodeLine(line, left, top));
      if (match[0] === '</line>') line = null;
    }
  }
  const positions: PagePositions = {
    v: POSITIONS_VERSION,
    w: Math.round((right - left) * 100) / 100,
    h: Math.round((bottom - top) * 100) / 100,
    l: lines,
  };
  return { text, positions };
}

function encodeLine({ bbox, vertical, text, starts }: LineInProgress, left: number, top: number): PositionsLine {
  const [bx0 = 0, by0 = 0, bx1 = 0, by1 = 0] = bbox;
  const x0 = tenths(bx0 - left);
  const y0 = tenths(by0 - top);
  const x1 = tenths(bx1 - left);
  const y1 = tenths(by1 - top);
  let previous = vertical ? y0 : x0;
  const steps = starts.map((start) => {
    const at = tenths(start - (vertical ? top : left));
    const step = at - previous;
    previous = at;
    return step;
  });
  return vertical ? [x0, y0, x1, y1, text, steps, 1] : [x0, y0, x1, y1, text, steps];
}

/** The page's positions as stored: JSON, gzip-compressed. */
export function encodePositions(positions: PagePositions, gzipLevel: number): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(positions), 'utf8'), { level: gzipLevel });
}
