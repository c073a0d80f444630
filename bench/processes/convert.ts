// The conversion engine in a process of its own, so that its memory peak (VmHWM, worker threads
// included) is its own. One JSON request per line on stdin, {"sourcePath", "outDir", "positions"?}; one JSON
// answer per line on stdout, after a first {"ready": "stdin"} line. After the conversion, the
// pages whose images it left as the PDF stores them are brought to reading resolution as the
// document module's job does it (backend/modules/document/page-images.ts: on the engine's
// threads, side by side), timed apart.
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createDocumentConverter } from '../../backend/platform/convert/converter';

const converter = createDocumentConverter({ workDir: process.env.BENCH_WORK_DIR });
console.log(JSON.stringify({ ready: 'stdin' }));

for await (const line of createInterface({ input: process.stdin })) {
  const { sourcePath, outDir, positions } = JSON.parse(line) as {
    sourcePath: string;
    outDir: string;
    positions?: boolean;
  };
  const start = performance.now();
  // the process's CPU time, its worker threads' and libvips' included: less swayed than the wall time by the others
  // running on the machine
  const cpuStart = process.cpuUsage();
  try {
    const result = await converter.convertDocument({ sourcePath, ext: 'pdf', outDir, positions });
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const positionSizes = await Promise.all(
      result.positionFiles.map(async (file) => (await stat(join(outDir, file))).size),
    );
    const readableBytes = result.pageFiles.reduce((sum, page) => sum + page.bytes, 0);
    const pending = result.pageFiles.filter((page) => page.pending);
    const imagesStart = performance.now();
    await Promise.all(
      pending.map(async (page) => {
        const lighter = await converter.pageAtReadingResolution(
          page.n,
          await readFile(join(outDir, page.file)),
          page.pending!,
        );
        if (!lighter) return;
        await writeFile(join(outDir, lighter.file), lighter.bytes);
        await rm(join(outDir, page.file));
        Object.assign(page, { file: lighter.file, kind: lighter.kind, bytes: lighter.bytes.length });
      }),
    );
    const imagesSeconds = (performance.now() - imagesStart) / 1000;
    const bytes = result.pageFiles.reduce((sum, page) => sum + page.bytes, 0);
    const webp = result.pageFiles.filter((page) => page.kind === 'webp').length;
    console.log(
      JSON.stringify({
        seconds,
        cpuSeconds,
        imagesSeconds,
        pendingPages: pending.length,
        pages: result.pages,
        files: result.pageFiles.length,
        webp,
        bytes,
        readableBytes,
        positionBytes: positionSizes.reduce((sum, size) => sum + size, 0),
      }),
    );
  } catch (error) {
    console.log(JSON.stringify({ error: (error as Error).message }));
  }
}
await converter.close();
