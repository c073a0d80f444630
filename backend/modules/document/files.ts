// Where a document's files live in the blob store (docs/moredoc.md §8): the original at
// documents/<h0>/<h1>/<h2>/<h3>/<h4>/<md5><ext>, and everything made from it (pages, covers,
// text, the intermediate PDF, the manifest) in the folder documents/<h0>/…/<h4>/<md5>/.

const MD5 = /^[0-9a-f]{32}$/;

export function isMd5(value: string): boolean {
  return MD5.test(value);
}

function shards(hash: string): string {
  if (!isMd5(hash)) throw new TypeError(`not an MD5 hex digest: ${hash}`);
  return `documents/${hash.slice(0, 5).split('').join('/')}`;
}

/** The folder of the conversion outputs, without a trailing slash. */
export function outputFolder(hash: string): string {
  return `${shards(hash)}/${hash}`;
}

/** The key of one output file (`3.gzip.svg`, `cover.png`, `manifest.json`). */
export function outputKey(hash: string, name: string): string {
  return `${outputFolder(hash)}/${name}`;
}

/** The key of the uploaded original; `ext` with its dot, as the document stores it. */
export function originalKey(hash: string, ext: string): string {
  return `${shards(hash)}/${hash}${ext}`;
}

/** The attachment `path` of an upload, the key with a leading slash (README §8.1). */
export function keyOfPath(path: string): string {
  return path.replace(/^\/+/, '');
}
