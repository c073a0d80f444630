import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ConversionError } from './errors';

// Zip containers (epub, cbz, docx/xlsx/pptx, odt/ods/odp) are inflated by the converters,
// which trust their headers. Before any of them sees one, every entry is inflated here once,
// counting real bytes: a zip bomb, or a header that lies about an entry's size, stops here.

export interface ArchiveLimits {
  /** entries in the central directory */
  maxEntries: number;
  /** sum of the inflated sizes of all entries */
  maxUncompressedBytes: number;
}

function tooLarge(detail: string): ConversionError {
  return new ConversionError('archive-too-large', { detail });
}

/** Counts the bytes of one entry's stream, failing as soon as a limit is passed. */
function drain(stream: Readable, entryLimit: number, totalLimit: number, signal?: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const stop = (error: Error) => {
      stream.destroy();
      reject(error);
    };
    const onAbort = () => stop(new ConversionError('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > entryLimit) stop(tooLarge(`an entry inflates past its declared size (${entryLimit} bytes)`));
      else if (bytes > totalLimit) stop(tooLarge(`the entries inflate past ${totalLimit} bytes`));
    });
    stream.on('error', (error) => stop(new ConversionError('corrupt', { detail: error.message })));
    stream.on('end', () => resolve(bytes));
    stream.on('close', () => signal?.removeEventListener('abort', onAbort));
  });
}

/** Throws ConversionError('archive-too-large' | 'corrupt' | 'encrypted') unless the zip is safe to open. */
export async function checkArchive(path: string, limits: ArchiveLimits, signal?: AbortSignal): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    // decodeStrings off: names are not needed here, and unusual names are the converters' business.
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: false,
      autoClose: false,
    });
  } catch (error) {
    throw new ConversionError('corrupt', { detail: `zip: ${(error as Error).message}` });
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw tooLarge(`${zip.entryCount} entries (limit ${limits.maxEntries})`);
    // First what the directory claims (cheap, catches an honest bomb), then what the data holds.
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize;
      if (declared > limits.maxUncompressedBytes)
        throw tooLarge(`declared sizes add up past ${limits.maxUncompressedBytes} bytes`);
      if (entry.isEncrypted()) throw new ConversionError('encrypted', { detail: 'zip entry is encrypted' });
      entries.push(entry);
    }
    let inflated = 0;
    for (const entry of entries) {
      if (signal?.aborted) throw new ConversionError('aborted');
      let stream: Readable;
      try {
        stream = await zip.openReadStreamPromise(entry);
      } catch (error) {
        throw new ConversionError('corrupt', { detail: `zip entry: ${(error as Error).message}` });
      }
      inflated += await drain(stream, entry.uncompressedSize, limits.maxUncompressedBytes - inflated, signal);
    }
  } catch (error) {
    if (error instanceof ConversionError) throw error;
    throw new ConversionError('corrupt', { detail: `zip: ${(error as Error).message}` });
  } finally {
    zip.close();
  }
}
