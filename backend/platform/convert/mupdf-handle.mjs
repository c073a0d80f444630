// The object MuPDF's WebAssembly module fills in as it loads (mupdf.js hands
// `globalThis.$libmupdf_wasm_Module` to the Emscripten factory, which makes it the module):
// imported before `mupdf`, it gives text-positions.mjs MuPDF's own structured-text accessors,
// about a microsecond a character where mupdf.js's StructuredText.walk() makes a Font object
// and a finalizer for each. Empty when mupdf was loaded first: the positions then come from
// MuPDF's XML, slower but the same.
export const mupdfWasm = (globalThis.$libmupdf_wasm_Module ??= {});
