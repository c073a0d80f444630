// Bundled by convert-bundle.test.ts beside the server bundles, with the same esbuild flags:
// converts one PDF as the bundled backend will, and prints the result as JSON.
import { createDocumentConverter } from '../../backend/platform/convert/converter';

const [sourcePath, outDir] = process.argv.slice(2);
if (!sourcePath || !outDir) throw new Error('usage: convert-probe.mjs <file.pdf> <output directory>');
const converter = createDocumentConverter({
  workers: 1,
  libreofficePath: null,
  calibrePath: null,
  workDir: `${outDir}-work`,
});
try {
  console.log(JSON.stringify(await converter.convertDocument({ sourcePath, ext: 'pdf', outDir })));
} finally {
  await converter.close();
}
