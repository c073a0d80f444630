// The object MuPDF's WebAssembly module fills in as it loads (mupdf.js hands
// `globalThis.$libmupdf_wasm_Module` to the Emscripten factory, which makes it the module):
// imported before `mupdf`, it gives text-positions.ts MuPDF's own structured-text accessors,
// about a microsecond a character where mupdf.js's StructuredText.walk() makes a Font object
// and a finalizer for each. Empty when mupdf was loaded first: the positions then come from
// MuPDF's XML, slower but the same. The worker's bundle keeps it a file of its own
// (mupdf-handle.mjs beside convert-worker.mjs, ../thread-modules.ts): a bundle hoists every package
// import above its inlined code, which would load mupdf first.
export const mupdfWasm: Record<string, unknown> = (globalThis.$libmupdf_wasm_Module ??= {});
