// The conversion engine in a process of its own, so that its memory peak (VmHWM, worker threads
// included) is its own. One JSON request per line on stdin, {"sourcePath", "outDir"}; one JSON
// answer per line on stdout, after a first {"ready": "stdin"} line.
import { createInterface } from 'node:readline';
import { createDocumentConverter } from '../../backend/platform/convert/converter';

const converter = createDocumentConverter({ workDir: process.env.BENCH_WORK_DIR });
console.log(JSON.stringify({ ready: 'stdin' }));

for await (const line of createInterface({ input: process.stdin })) {
  const { sourcePath, outDir } = JSON.parse(line) as { sourcePath: string; outDir: string };
  const start = performance.now();
  try {
    const result = await converter.convertDocument({ sourcePath, ext: 'pdf', outDir });
    const seconds = (performance.now() - start) / 1000;
    const bytes = result.pageFiles.reduce((sum, page) => sum + page.bytes, 0);
    const webp = result.pageFiles.filter((page) => page.kind === 'webp').length;
    console.log(JSON.stringify({ seconds, pages: result.pages, files: result.pageFiles.length, webp, bytes }));
  } catch (error) {
    console.log(JSON.stringify({ error: (error as Error).message }));
  }
}
await converter.close();
