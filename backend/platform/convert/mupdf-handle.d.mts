// Types of mupdf-handle.mjs (plain JavaScript: it runs in the conversion worker threads).
export const mupdfWasm: Record<string, unknown>;

declare global {
  var $libmupdf_wasm_Module: Record<string, unknown> | undefined;
}
