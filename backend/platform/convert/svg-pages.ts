// Several pages' SVGs drawn through one MuPDF SVG device, then cut apart.
//
// It runs in the conversion worker threads (convert-worker.ts).
//
// With text drawn as paths, MuPDF's SVG device outlines every glyph the first time it meets it
// and only places it (`<use>`) after that; that outlining is most of a text page's time (a
// Chinese page uses a few hundred glyphs, each outlined by FreeType and written as a path).
// A device per page outlines them again on every page. One device for a run of pages outlines
// each glyph once for the run: on a 57-page Chinese text PDF whose pages share no text, 10 ms of
// SVG writing a page became 3.4 ms in runs of 16. Each page is wrapped in a layer of its own
// (`<g inkscape:label="…">`), and cut out of the shared SVG with the definitions it uses (glyphs,
// clips, masks, images, and what those use in turn; an image an earlier page drew goes into the
// page's defs), under its own `<svg>` header: a page that stands alone and draws as its own device
// would have drawn it. Should the shared SVG not have the expected shape, or a page refer to
// something it cannot take along, the pages are written one device each, as before.
import { randomBytes } from 'node:crypto';
import * as mupdf from 'mupdf';
import { trimGlyphOutlines } from './svg-glyphs';

const DEFS_OPEN = Buffer.from('<defs>\n');
const DEFS_CLOSE = Buffer.from('</defs>\n');
const LAYER_CLOSE = Buffer.from('</g>\n');
const SVG_CLOSE = Buffer.from('</svg>\n');
const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const HASH = 0x23;
const QUOTE = 0x22;
const CLOSE_PAREN = 0x29;
const NEWLINE = 0x0a;
const HREF = Buffer.from('href="');
const URL = Buffer.from('url(');
const ID = Buffer.from(' id="');

/** What can draw a page: the page itself (or its display list). */
export interface Drawing {
  run(device: mupdf.Device, matrix: mupdf.Matrix): void;
}

/** A top-level element of the shared SVG: where it is, its place in the document, what it refers to. */
interface Definition {
  start: number;
  end: number;
  index: number;
  references: string[] | null;
  /** for an element inside a page's body: that page */
  page?: number;
  /** one self-closing element (which can be copied into another page's defs) */
  single?: boolean;
}

interface Definitions {
  byId: Map<string, Definition>;
  loose: Definition[];
}

/** A page added to the shared device. */
interface AddedPage {
  page: Drawing;
  bounds: mupdf.Rect;
}

/** `[buffer, start?, end?]`: a part of a joined buffer. */
type Part = [Buffer, number?, number?];

/** One page (its display list, or the page itself) through a device of its own. */
function ownSvg(drawing: Drawing, bounds: mupdf.Rect): Buffer {
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, 'svg', '');
  try {
    drawing.run(writer.beginPage(bounds), mupdf.Matrix.identity);
    writer.endPage();
    writer.close();
    return trimGlyphOutlines(buffer.asUint8Array());
  } finally {
    writer.destroy();
    buffer.destroy();
  }
}

/** The `<svg …>` line MuPDF writes for a page of these bounds (cached: most documents have one size). */
const headers = new Map<string, Buffer>();
function headerOf(bounds: mupdf.Rect): Buffer {
  const key = bounds.join(',');
  let header = headers.get(key);
  if (header === undefined) {
    const empty = ownSvg({ run: () => {} }, bounds);
    header = Buffer.from(empty.subarray(0, empty.indexOf('>\n') + 2));
    if (headers.size > 64) headers.clear();
    headers.set(key, header);
  }
  return header;
}

const endsWithAt = (svg: Buffer, end: number, bytes: Buffer): boolean =>
  end >= bytes.length && svg.compare(bytes, 0, bytes.length, end - bytes.length, end) === 0;

/** The ids `svg[from, to)` refers to: `href="#id"` and `url(#id)`. */
function referencesIn(svg: Buffer, from: number, to: number): string[] {
  const ids: string[] = [];
  for (let at = svg.indexOf(HASH, from); at >= 0 && at < to; at = svg.indexOf(HASH, at + 1)) {
    const closer = endsWithAt(svg, at, HREF) ? QUOTE : endsWithAt(svg, at, URL) ? CLOSE_PAREN : -1;
    if (closer < 0) continue;
    const end = svg.indexOf(closer, at + 1);
    if (end < 0 || end > to) break;
    ids.push(svg.toString('latin1', at + 1, end));
    at = end;
  }
  return ids;
}

/**
 * The top-level elements of the definitions `svg[from, to)`: `{ start, end, index }` by id, and
 * those without one (`loose`, kept with every page). Null when a tag is not closed.
 */
function definitionsOf(svg: Buffer, from: number, to: number): Definitions | null {
  const byId = new Map<string, Definition>();
  const loose: Definition[] = [];
  let index = 0;
  for (let at = svg.indexOf(LT, from); at >= 0 && at < to; at = svg.indexOf(LT, at)) {
    const start = at;
    let depth = 0;
    let startTagEnd = -1;
    do {
      const open = svg.indexOf(LT, at);
      const close = open < 0 ? -1 : svg.indexOf(GT, open);
      if (close < 0 || close >= to) return null;
      if (startTagEnd < 0) startTagEnd = close;
      if (svg[open + 1] === SLASH) depth--;
      else if (svg[close - 1] !== SLASH) depth++;
      at = close + 1;
    } while (depth > 0);
    if (svg[at] === NEWLINE) at++;
    const definition: Definition = { start, end: at, index: index++, references: null };
    const idAt = svg.indexOf(ID, start);
    if (idAt < 0 || idAt > startTagEnd) loose.push(definition);
    else byId.set(svg.toString('latin1', idAt + ID.length, svg.indexOf(QUOTE, idAt + ID.length)), definition);
  }
  return { byId, loose };
}

/**
 * Elements with an id inside the pages' bodies, added to `definitions`: MuPDF draws an image
 * the first time as `<image id="image_N" …/>` where it stands, and later as `<use>` of it, so a
 * later page may need an element of an earlier page's body. `{ start, end, page, single }`,
 * `single` when it is one self-closing element (which can be copied into another page's defs).
 */
function addBodyElements(svg: Buffer, markers: number[], end: number, definitions: Definitions): void {
  let page = 0;
  let index = definitions.byId.size + definitions.loose.length;
  for (let at = svg.indexOf(ID, markers[0]); at >= 0 && at < end; at = svg.indexOf(ID, at + 1)) {
    while (page + 1 < markers.length && markers[page + 1]! < at) page++;
    const start = svg.lastIndexOf(LT, at);
    const close = svg.indexOf(GT, at);
    const id = svg.toString('latin1', at + ID.length, svg.indexOf(QUOTE, at + ID.length));
    const single = svg[close - 1] === SLASH;
    definitions.byId.set(id, {
      start,
      end: svg[close + 1] === NEWLINE ? close + 2 : close + 1,
      index: index++,
      references: null,
      page,
      single,
    });
  }
}

/**
 * The definitions page `page`, the body `svg[from, to)`, uses, directly or through other
 * definitions, in their order: `[start, end]` ranges. Null when it refers to something it cannot
 * take along (not defined, or a group in another page's body).
 */
function definitionsFor(
  svg: Buffer,
  from: number,
  to: number,
  page: number,
  definitions: Definitions,
): [number, number][] | null {
  const wanted = new Set(definitions.loose);
  const queue = referencesIn(svg, from, to);
  while (queue.length > 0) {
    const definition = definitions.byId.get(queue.pop()!);
    if (!definition) return null;
    if (definition.page === page || wanted.has(definition)) continue;
    if (definition.page !== undefined && !definition.single) return null;
    wanted.add(definition);
    definition.references ??= referencesIn(svg, definition.start, definition.end);
    for (const id of definition.references) queue.push(id);
  }
  // As ranges of the shared SVG, neighbours joined: a page's glyphs were mostly defined in a row.
  const ranges: [number, number][] = [];
  for (const { start, end } of [...wanted].sort((a, b) => a.index - b.index)) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === start) last[1] = end;
    else ranges.push([start, end]);
  }
  return ranges;
}

/** Cuts the shared SVG into one SVG a page; null when it is not shaped as expected. */
function cut(svg: Buffer, pages: readonly AddedPage[], label: string): Buffer[] | null {
  const markers: number[] = [];
  for (let i = 0; i < pages.length; i++) {
    const at = svg.indexOf(
      `<g inkscape:groupmode="layer" inkscape:label="${label}${i}">\n`,
      i > 0 ? markers[i - 1]! : 0,
    );
    if (at < 0) return null;
    markers.push(at);
  }
  const headerEnd = svg.indexOf('>\n') + 2;
  const firstMarker = markers[0]!;
  if (svg.indexOf('<svg') !== 0 || headerEnd < 2 || headerEnd > firstMarker) return null;
  let definitions: Definitions | null = { byId: new Map(), loose: [] };
  if (firstMarker > headerEnd) {
    const defsStart = headerEnd + DEFS_OPEN.length;
    const defsEnd = firstMarker - DEFS_CLOSE.length;
    if (
      svg.compare(DEFS_OPEN, 0, DEFS_OPEN.length, headerEnd, defsStart) !== 0 ||
      !endsWithAt(svg, firstMarker, DEFS_CLOSE)
    )
      return null;
    definitions = definitionsOf(svg, defsStart, defsEnd);
    if (!definitions) return null;
  }
  if (!endsWithAt(svg, svg.length, SVG_CLOSE)) return null;
  const end = svg.length - SVG_CLOSE.length;
  addBodyElements(svg, markers, end, definitions);
  const out: Buffer[] = [];
  for (let i = 0; i < pages.length; i++) {
    const from = svg.indexOf(NEWLINE, markers[i]) + 1;
    const layerEnd = i + 1 < pages.length ? markers[i + 1]! : end;
    if (!endsWithAt(svg, layerEnd, LAYER_CLOSE) || layerEnd - LAYER_CLOSE.length < from) return null;
    const to = layerEnd - LAYER_CLOSE.length;
    const used = definitionsFor(svg, from, to, i, definitions);
    if (!used) return null;
    const header = headerOf(pages[i]!.bounds);
    const parts: Part[] =
      used.length > 0
        ? [[header], [DEFS_OPEN], ...used.map((range): Part => [svg, ...range]), [DEFS_CLOSE]]
        : [[header]];
    parts.push([svg, from, to], [SVG_CLOSE]);
    out.push(joined(parts));
  }
  return out;
}

/** One buffer of `[buffer, start?, end?]` parts. */
function joined(parts: readonly Part[]): Buffer {
  let length = 0;
  for (const [buffer, start = 0, end = buffer.length] of parts) length += end - start;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const [buffer, start = 0, end = buffer.length] of parts) at += buffer.copy(out, at, start, end);
  return out;
}

/**
 * The SVGs of a run of a document's pages, drawn through one device so that glyphs the pages
 * share are outlined once: `add` each page as it is ready (its display list is drawn at once and
 * may be destroyed after), then `finish` cuts one SVG a page, glyph outlines rounded
 * (svg-glyphs.ts), bytes ready to compress. `destroy` frees the device (after `finish` or instead).
 */
export class SvgPages {
  #label = `moredoc-page-${randomBytes(6).toString('hex')}-`;
  #buffer: mupdf.Buffer | null = new mupdf.Buffer();
  #writer: mupdf.DocumentWriter | null = new mupdf.DocumentWriter(this.#buffer!, 'svg', '');
  #device: mupdf.Device | null = null;
  /** `{ page, bounds }` of the pages added: a page is drawn again alone should the cut fail. */
  #pages: AddedPage[] = [];

  /** Draws page `page` (`list`, its display list, within `bounds`) into the shared device. */
  add(page: Drawing, list: mupdf.DisplayList, bounds: mupdf.Rect): void {
    this.#device ??= this.#writer!.beginPage(bounds);
    this.#device.beginLayer(`${this.#label}${this.#pages.length}`);
    list.run(this.#device, mupdf.Matrix.identity);
    this.#device.endLayer();
    this.#pages.push({ page, bounds });
  }

  /** One SVG a page added, in order. */
  finish(): Buffer[] {
    if (this.#pages.length === 0) {
      this.destroy();
      return [];
    }
    this.#writer!.endPage();
    this.#writer!.close();
    const shared = trimGlyphOutlines(this.#buffer!.asUint8Array());
    this.destroy();
    return cut(shared, this.#pages, this.#label) ?? this.#pages.map(({ page, bounds }) => ownSvg(page, bounds));
  }

  destroy(): void {
    this.#writer?.destroy();
    this.#buffer?.destroy();
    this.#writer = null;
    this.#buffer = null;
  }
}
