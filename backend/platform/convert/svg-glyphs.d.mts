// Types of svg-glyphs.mjs (plain JavaScript: it runs in the conversion worker threads).

export function trimGlyphOutlines(svg: Uint8Array): Buffer;
