import { readFileSync } from 'node:fs';
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
});
