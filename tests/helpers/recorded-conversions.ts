// The conversion engine for tests that are about something else than converting (access
// rules, pages, the reader): the real engine converts each file once, and its outputs are kept
// (tests/helpers/kept.ts) under a hash of the file, its extension, the page limit and the
// engine's code (backend/platform/convert/, MuPDF's and sharp's versions); the next
// conversion of the same file, in this run or a later one, gets a copy of them. Only what
// MuPDF converts itself is kept: LibreOffice's and calibre's outputs depend on the install.
// The engine's own tests (tests/backend/convert/, documents/conversion.test.ts…) convert
// for real.
import { readdirSync, readFileSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createDocumentConverter,
  DEFAULT_LIMITS,
  type ConversionRequest,
  type ConversionResult,
  type ConverterSettings,
  type DocumentConverter,
} from '../../backend/platform/convert/converter';
import { kept, keptIfThere, keyOf } from './kept';

const ENGINE = fileURLToPath(new URL('../../backend/platform/convert/', import.meta.url));
const MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

let engineKey: string | undefined;

/** What the engine's outputs depend on besides the file: its code and the versions of the libraries it renders with. */
function engineParts(): string {
  if (engineKey === undefined) {
    const files = readdirSync(ENGINE, { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|mts|mjs)$/.test(name))
      .sort();
    const versions = ['mupdf', 'sharp'].map(
      (name) =>
        `${name}@${(JSON.parse(readFileSync(join(MODULES, name, 'package.json'), 'utf8')) as { version: string }).version}`,
    );
    engineKey = keyOf([...versions, ...files.flatMap((name) => [name, readFileSync(join(ENGINE, name))])]);
  }
  return engineKey;
}

/** Makes a converter (buildBackend's `converter` option) that replays recorded conversions. */
export function recordedConversions(settings: ConverterSettings): DocumentConverter {
  let engine: DocumentConverter | undefined;
  const real = () => (engine ??= createDocumentConverter(settings));
  return {
    async convertDocument(request: ConversionRequest): Promise<ConversionResult> {
      const maxPages = request.limits?.maxPages ?? settings.limits?.maxPages ?? DEFAULT_LIMITS.maxPages;
      const key = keyOf([
        engineParts(),
        request.ext.replace(/^\./, '').toLowerCase(),
        String(maxPages),
        await readFile(request.sourcePath),
      ]);
      const recorded = await keptIfThere('conversion', key);
      if (recorded) {
        const result = JSON.parse(await readFile(join(recorded, 'result.json'), 'utf8')) as ConversionResult;
        await cp(join(recorded, 'files'), request.outDir, { recursive: true });
        request.onProgress?.({ done: result.pages, total: result.pages });
        return result;
      }
      const result = await real().convertDocument(request);
      if (result.converter === 'mupdf') {
        await kept('conversion', key, async (dir) => {
          await cp(request.outDir, join(dir, 'files'), { recursive: true });
          await writeFile(join(dir, 'result.json'), JSON.stringify(result));
        });
      }
      return result;
    },
    pageAtReadingResolution: (n, stored, pending, signal) => real().pageAtReadingResolution(n, stored, pending, signal),
    extractPositions: (request) => real().extractPositions(request),
    detectConverters: () => real().detectConverters(),
    close: async () => engine?.close(),
  };
}
