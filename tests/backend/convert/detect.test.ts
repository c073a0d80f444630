import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectConverters } from '../../../backend/platform/convert/detect';

// What `GET /api/v1/envs` will report: MuPDF always, LibreOffice and calibre when they answer.

const mupdfPackage = JSON.parse(
  readFileSync(new URL('../../../node_modules/mupdf/package.json', import.meta.url), 'utf8'),
) as { version: string };
const found = await detectConverters();

describe('detectConverters', () => {
  it('reports the MuPDF version of the npm package', () => {
    expect(found.mupdf).toEqual({ version: mupdfPackage.version });
  });

  it('leaves out a converter switched off (null) or not found at the configured path', async () => {
    expect(await detectConverters({ libreofficePath: null, calibrePath: null })).toEqual({ mupdf: found.mupdf });
    expect(
      await detectConverters({ libreofficePath: '/nonexistent/soffice', calibrePath: '/nonexistent/ebook-convert' }),
    ).toEqual({ mupdf: found.mupdf });
  });

  it.skipIf(!found.libreoffice)(
    'finds soffice.bin from the soffice wrapper or the program directory, with its version',
    async () => {
      expect(found.libreoffice).toEqual({
        path: expect.stringMatching(/\/soffice\.bin$/),
        version: expect.stringMatching(/^\d+\.\d+/),
      });
      const program = found.libreoffice!.path.replace(/\/soffice\.bin$/, '');
      expect(
        (await detectConverters({ libreofficePath: `${program}/soffice`, calibrePath: null })).libreoffice,
      ).toEqual(found.libreoffice);
      expect((await detectConverters({ libreofficePath: program, calibrePath: null })).libreoffice).toEqual(
        found.libreoffice,
      );
    },
  );

  it.skipIf(!found.calibre)('finds ebook-convert with its version', () => {
    expect(found.calibre).toEqual({
      path: expect.stringMatching(/ebook-convert$/),
      version: expect.stringMatching(/^\d+\.\d+/),
    });
  });

  it('asks a program its version once while its file stays the same, and again once it is replaced or did not answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'detect-'));
    try {
      const asked = join(dir, 'asked');
      const program = join(dir, 'ebook-convert');
      // A stand-in for calibre's ebook-convert that counts the times it is asked.
      const install = (answer: string) => {
        writeFileSync(program, `#!/bin/sh\necho x >> '${asked}'\n${answer}\n`);
        chmodSync(program, 0o755);
      };
      const calibre = async () => (await detectConverters({ libreofficePath: null, calibrePath: dir })).calibre;
      const times = () => readFileSync(asked, 'utf8').split('\n').length - 1;

      install('exit 1');
      expect(await calibre()).toBeUndefined();
      expect(await calibre()).toBeUndefined();
      expect(times()).toBe(2);

      install("echo 'ebook-convert (calibre 7.1.0)'");
      expect(await calibre()).toEqual({ path: program, version: '7.1.0' });
      expect(await calibre()).toEqual({ path: program, version: '7.1.0' });
      expect(times()).toBe(3);

      // An upgrade writes a new file in its place.
      rmSync(program);
      install("echo 'ebook-convert (calibre 7.10.1)'");
      expect(await calibre()).toEqual({ path: program, version: '7.10.1' });
      expect(times()).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
