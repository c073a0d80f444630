import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentConverter, type DocumentConverter } from '../../../backend/platform/convert/converter';
import { conversionFailure } from './conversion-failure';
import { detectConverters } from '../../../backend/platform/convert/detect';
import { Slots, fontconfigFile, runProcess } from '../../../backend/platform/convert/external';
import { BODY_WORD } from '../../fixtures/documents/generate';
import { partsMissing, type ConverterPart } from '../../helpers/converters-installed';
import { COVER_RED, calibreEpub, convertedFiles, fixture } from '../../helpers/documents';
import { zip } from '../../helpers/zip';

// LibreOffice and calibre: what MuPDF cannot open becomes a PDF first. Each test runs when
// what it needs is installed (.ci/run installs it all): Writer or Calc, calibre, the Noto CJK
// fonts; otherwise it is skipped with the packages that are missing.

const tools = await detectConverters();
const SKIP_LIBREOFFICE = 'skipped: LibreOffice not installed';
const SKIP_CALIBRE = 'skipped: calibre not installed';
const missing = partsMissing(tools);

/** `it`, skipped with the reason (in its title) when one of `parts` is not installed. */
/** The GBK bytes of the words below, for files exported in GBK (Node encodes no GBK itself). */
const GBK_WORDS: Record<string, string> = {
  苹果: 'c6bbb9fb',
  香蕉: 'cfe3bdb6',
  图书馆: 'cdbccae9b9dd',
  读者: 'b6c1d5df',
};

/** The parts one after the other: a word of GBK_WORDS in GBK, anything else as ASCII. */
const gbk = (...parts: string[]): Buffer =>
  Buffer.concat(parts.map((part) => (part in GBK_WORDS ? Buffer.from(GBK_WORDS[part]!, 'hex') : Buffer.from(part))));

function itNeeds(parts: ConverterPart[], title: string, test: () => Promise<void>, timeout?: number): void {
  const reason = missing(...parts);
  it.skipIf(reason !== undefined)(reason ? `${title} — ${reason}` : title, test, timeout);
}

let dir: string;
let outputs = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'convert-external-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const outDir = () => join(dir, `out-${++outputs}`);

/**
 * The text holds one piece per page of the PDF the external converter made, BODY_WORD in the piece of the page that
 * shows it.
 */
async function expectPagesOfPdf(text: string, pdfFile: string): Promise<void> {
  const pdf = mupdf.Document.openDocument(await readFile(pdfFile), 'application/pdf');
  const holds = (pageText: string) => pageText.replace(/\s+/g, '').includes(BODY_WORD);
  const pages = text.split('\f');
  expect(pages).toHaveLength(pdf.countPages());
  const shown = Array.from({ length: pdf.countPages() }, (_, n) =>
    holds(pdf.loadPage(n).toStructuredText('').asText()),
  );
  expect(shown).toContain(true);
  expect(pages.map(holds)).toEqual(shown);
}

/** Whether a process runs: gone, or a zombie waiting for a parent that reaps it, is not running. */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** Command lines of the processes still running (zombies aside) that mention `text`. */
function processesMentioning(text: string): string[] {
  return execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(text) && !line.trimStart().startsWith('Z'));
}

const ODF = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'office:version="1.2"',
].join(' ');

/** An .ods of one sheet 销售表 holding 苹果; `styles` is its styles.xml's body, if it has one. */
function spreadsheetOds(styles?: string): Buffer {
  const xml = (root: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><office:${root} ${ODF}>${body}</office:${root}>`;
  const parts = ['content.xml', ...(styles ? ['styles.xml'] : [])];
  return zip([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', store: true },
    {
      name: 'META-INF/manifest.xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>' +
        parts
          .map((part) => `<manifest:file-entry manifest:full-path="${part}" manifest:media-type="text/xml"/>`)
          .join('') +
        '</manifest:manifest>',
    },
    {
      name: 'content.xml',
      data: xml(
        'document-content',
        '<office:body><office:spreadsheet><table:table table:name="销售表"><table:table-row>' +
          '<table:table-cell office:value-type="string"><text:p>苹果</text:p></table:table-cell>' +
          '</table:table-row></table:table></office:spreadsheet></office:body>',
      ),
    },
    ...(styles ? [{ name: 'styles.xml', data: xml('document-styles', styles) }] : []),
  ]);
}

describe('runProcess', () => {
  it('kills the whole process group when its signal aborts, children included', async () => {
    const pidFile = join(dir, 'child.pid');
    const controller = new AbortController();
    const running = runProcess('sh', ['-c', `sleep 60 & echo $! > ${pidFile}; wait`], process.env, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    expect(await conversionFailure(running)).toMatchObject({ reason: 'aborted' });
    const child = Number(await readFile(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await isRunning(child)).toBe(false);
  });
});

describe.runIf(process.platform === 'linux')("the external converters' priority", () => {
  const base = getPriority();
  const increment = Math.min(4, 19 - base);

  it("runProcess adds `nice` to the program's nice value from its start, and its children have it", async () => {
    // The shell's own child (cut) reads the shell's nice value at once: the priority it was forked with.
    const outcome = await runProcess(
      'sh',
      ['-c', 'cut -d" " -f19 /proc/$$/stat'],
      process.env,
      AbortSignal.timeout(10_000),
      increment,
    );
    expect(outcome).toMatchObject({ code: 0 });
    expect(Number(outcome.output.trim())).toBe(base + increment);
    const plain = await runProcess(
      'sh',
      ['-c', 'cut -d" " -f19 /proc/$$/stat'],
      process.env,
      AbortSignal.timeout(10_000),
    );
    expect(Number(plain.output.trim())).toBe(base);
  });

  it("runs LibreOffice at the converter's nice increment, as the MuPDF threads", async () => {
    // A stand-in soffice.bin that answers --version, notes its nice value and makes the PDF.
    const program = join(dir, 'fake-libreoffice');
    const niceFile = join(dir, 'fake-libreoffice.nice');
    await mkdir(program, { recursive: true });
    await copyFile(fixture('chinese.pdf'), join(dir, 'fake-output.pdf'));
    const script = [
      '#!/bin/sh',
      'if [ "$1" = "--version" ]; then echo "LibreOffice 7.4.7.2"; exit 0; fi',
      'for input; do :; done',
      'while [ $# -gt 0 ]; do [ "$1" = "--outdir" ] && out="$2"; shift; done',
      'name=$(basename "$input"); name="${name%.*}"',
      `cut -d" " -f19 /proc/$$/stat > ${niceFile}`,
      'mkdir -p "$out"',
      `cp ${join(dir, 'fake-output.pdf')} "$out/$name.pdf"`,
      '',
    ].join('\n');
    await writeFile(join(program, 'soffice.bin'), script);
    await chmod(join(program, 'soffice.bin'), 0o755);
    const polite = createDocumentConverter({
      workers: 1,
      workDir: join(dir, 'fake-work'),
      libreofficePath: program,
      calibrePath: null,
      niceIncrement: increment,
    });
    try {
      const result = await polite.convertDocument({
        sourcePath: fixture('chinese.docx'),
        ext: 'docx',
        outDir: outDir(),
      });
      expect(result).toMatchObject({ converter: 'libreoffice', pages: 3 });
      expect(Number((await readFile(niceFile, 'utf8')).trim())).toBe(base + increment);
    } finally {
      await polite.close();
    }
  });
});

describe('Slots', () => {
  it('hands out numbered slots, queues the next caller, and lets a waiting caller give up', async () => {
    const slots = new Slots(1);
    const never = new AbortController().signal;
    const first = await slots.acquire(never);
    const giveUp = new AbortController();
    const abandoned = slots.acquire(giveUp.signal);
    const queued = slots.acquire(never);
    giveUp.abort();
    await expect(abandoned).rejects.toMatchObject({ reason: 'aborted' });
    slots.release(first);
    expect(await queued).toBe(first);
  });
});

describe('the fontconfig file', () => {
  it('includes the system configuration and aliases the usual Chinese font names to Noto CJK', () => {
    const conf = fontconfigFile();
    expect(conf).toContain('<include ignore_missing="yes">/etc/fonts/fonts.conf</include>');
    expect(conf).toContain('<family>宋体</family><prefer><family>Noto Serif CJK SC</family></prefer>');
    expect(conf).toContain('<family>微软雅黑</family><prefer><family>Noto Sans CJK SC</family></prefer>');
  });

  itNeeds(['noto-cjk'], 'makes fontconfig pick Noto CJK SC for 宋体, SimSun, 黑体, 微软雅黑 and 楷体', async () => {
    const file = join(dir, 'fonts.conf');
    await writeFile(file, fontconfigFile());
    const match = (family: string) =>
      execFileSync('fc-match', ['-f', '%{family[0]}', family], {
        env: { ...process.env, FONTCONFIG_FILE: file },
        encoding: 'utf8',
      });
    expect(['宋体', 'SimSun', '楷体'].map(match)).toEqual([
      'Noto Serif CJK SC',
      'Noto Serif CJK SC',
      'Noto Serif CJK SC',
    ]);
    expect(['黑体', '微软雅黑'].map(match)).toEqual(['Noto Sans CJK SC', 'Noto Sans CJK SC']);
  });
});

describe('without LibreOffice or calibre', () => {
  it('refuses Office files and Kindle books with a Chinese reason', async () => {
    const converter = createDocumentConverter({
      workers: 1,
      libreofficePath: null,
      calibrePath: null,
      workDir: join(dir, 'none'),
    });
    try {
      expect(await converter.detectConverters()).not.toHaveProperty('libreoffice');
      const docx = await conversionFailure(
        converter.convertDocument({ sourcePath: fixture('chinese.docx'), ext: 'docx', outDir: outDir() }),
      );
      expect(docx).toMatchObject({
        reason: 'converter-missing',
        message: '服务器未安装 LibreOffice，无法转换此格式的文档',
      });
      const azw3 = await conversionFailure(
        converter.convertDocument({ sourcePath: fixture('chinese.azw3'), ext: 'azw3', outDir: outDir() }),
      );
      expect(azw3).toMatchObject({
        reason: 'converter-missing',
        message: '服务器未安装 calibre，无法转换此格式的电子书',
      });
    } finally {
      await converter.close();
    }
  });
});

describe('two engines on one machine', () => {
  it('run LibreOffice at once, each on a profile of its own', async () => {
    // A LibreOffice that, as the real one, makes no PDF on a profile another run holds; else
    // (after a while, so that the two runs overlap) the fixture's PDF.
    const office = join(dir, 'one-profile-office');
    await mkdir(office);
    const bin = join(office, 'soffice.bin');
    await writeFile(
      bin,
      [
        '#!/bin/sh',
        'if [ "$1" = --version ]; then echo "LibreOffice 7.0.0.0"; exit 0; fi',
        'for arg; do',
        '  case "$arg" in -env:UserInstallation=file://*) profile="${arg#-env:UserInstallation=file://}";; esac',
        '  [ "$previous" = --outdir ] && out="$arg"',
        '  previous="$arg"; input="$arg"',
        'done',
        'mkdir -p "$profile" && mkdir "$profile/running" 2>/dev/null || exit 0',
        'sleep 3',
        'name=$(basename "$input") && mkdir -p "$out"',
        `cp '${fixture('chinese.pdf')}' "$out/\${name%.*}.pdf"`,
        'rmdir "$profile/running"',
        '',
      ].join('\n'),
    );
    await chmod(bin, 0o755);
    // Both in the machine's one work folder, as every engine of every process (its default).
    const workDir = join(dir, 'one-machine');
    const engines = [0, 1].map(() =>
      createDocumentConverter({ workers: 1, workDir, libreofficePath: bin, calibrePath: null }),
    );
    try {
      const results = await Promise.all(
        engines.map((engine) =>
          engine.convertDocument({ sourcePath: fixture('chinese.docx'), ext: 'docx', outDir: outDir() }).then(
            ({ converter, pages }) => ({ converter, pages }),
            (error: Error) => error.message,
          ),
        ),
      );
      expect(results).toEqual([
        { converter: 'libreoffice', pages: 3 },
        { converter: 'libreoffice', pages: 3 },
      ]);
    } finally {
      await Promise.all(engines.map((engine) => engine.close()));
    }
    // Each engine's profiles go with it.
    expect(await readdir(workDir)).toEqual([]);
  }, 60_000);
});

describe(tools.libreoffice ? `LibreOffice ${tools.libreoffice.version}` : `LibreOffice (${SKIP_LIBREOFFICE})`, () => {
  let converter: DocumentConverter;
  let workDir: string;
  beforeAll(() => {
    workDir = join(dir, 'libreoffice');
    converter = createDocumentConverter({ workers: 2, workDir, externalConcurrency: 2 });
  });
  afterAll(async () => {
    await converter?.close();
  });

  /** Writes each case's bytes to its file and converts them all at once, two at a time as the engine's two LibreOffice slots take them. */
  const convertAll = (cases: readonly { name: string; ext: string; bytes: Buffer }[]) =>
    Promise.all(
      cases.map(async ({ name, ext, bytes }) => {
        const source = join(dir, name);
        await writeFile(source, bytes);
        return { name, result: await converter.convertDocument({ sourcePath: source, ext, outDir: outDir() }) };
      }),
    );

  itNeeds(
    ['writer', 'noto-cjk'],
    'turns a docx into a kept PDF, then pages, text and covers',
    async () => {
      const out = outDir();
      const result = await converter.convertDocument({ sourcePath: fixture('chinese.docx'), ext: 'docx', outDir: out });
      expect(result).toMatchObject({
        converter: 'libreoffice',
        pages: 3,
        width: 595,
        height: 842,
        pdfFile: 'document.pdf',
      });
      expect((await readFile(join(out, 'document.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
      expect(result.text).toContain(BODY_WORD);
      expect((await readdir(out)).sort()).toEqual([...convertedFiles(3), 'document.pdf']);
      // one text per page of the kept PDF, a form feed between them
      await expectPagesOfPdf(result.text, join(out, 'document.pdf'));
    },
    120_000,
  );

  itNeeds(
    ['calc', 'noto-cjk'],
    'reads a GBK-encoded CSV as Chinese text',
    async () => {
      // 测试,文本 / 一,二 in GBK
      const csv = Buffer.from('b2e2cad42ccec4b1be0d0ad2bb2cb6fe0d0a', 'hex');
      const source = join(dir, 'table.csv');
      await writeFile(source, csv);
      const result = await converter.convertDocument({ sourcePath: source, ext: 'csv', outDir: outDir() });
      expect(result.converter).toBe('libreoffice');
      expect(result.text).toContain('测试');
      expect(result.text).toContain('文本');
    },
    120_000,
  );

  itNeeds(
    ['writer', 'noto-cjk'],
    'reads an HTML or text file named .doc or .ppt, UTF-8 or GBK, whole: every paragraph, on one page',
    async () => {
      const page = (head = '') => ['<html>', head, '<body><p>', '图书馆', '</p><p>', '读者', '</p></body></html>'];
      const cases: { name: string; ext: string; bytes: Buffer }[] = [
        // Writer/Web's PDF left the first paragraph out, on a blank first page
        { name: 'utf8-html.doc', ext: 'doc', bytes: Buffer.from(page().join('')) },
        // read as Windows-1252: nothing Chinese left
        { name: 'gbk-html.doc', ext: 'doc', bytes: gbk(...page()) },
        {
          name: 'gbk-html-declared.doc',
          ext: 'doc',
          bytes: gbk(...page('<head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head>')),
        },
        { name: 'gbk-text.doc', ext: 'doc', bytes: gbk('图书馆', '\r\n', '读者', '\r\n') },
        // Impress made an empty slide of it
        { name: 'gbk-html.ppt', ext: 'ppt', bytes: gbk(...page()) },
      ];
      const results = await convertAll(cases);
      for (const { name, result } of results) {
        expect([name, result.converter, result.pages, result.text.replace(/\s+/g, '')]).toEqual([
          name,
          'libreoffice',
          1,
          '图书馆读者',
        ]);
      }
    },
    120_000,
  );

  itNeeds(
    ['calc', 'noto-cjk'],
    'reads a text table named .xls or .xlsx, UTF-8 or GBK, tab- or comma-separated or HTML, as Chinese cells',
    async () => {
      const cases: { name: string; ext: string; bytes: Buffer }[] = [
        { name: 'utf8-tsv.xls', ext: 'xls', bytes: Buffer.from('苹果\t3\n香蕉\t5\n') },
        { name: 'gbk-tsv.xls', ext: 'xls', bytes: gbk('苹果', '\t3\r\n', '香蕉', '\t5\r\n') },
        { name: 'gbk-csv.xlsx', ext: 'xlsx', bytes: gbk('苹果', ',3\r\n', '香蕉', ',5\r\n') },
        {
          name: 'gbk-html.xls',
          ext: 'xls',
          bytes: gbk('<table><tr><td>', '苹果', '</td><td>3</td></tr><tr><td>', '香蕉', '</td><td>5</td></tr></table>'),
        },
      ];
      const results = await convertAll(cases);
      for (const { name, result } of results) {
        expect(result.converter, name).toBe('libreoffice');
        // a cell a word: the characters are right and the separator split the lines
        expect(result.text.split(/\s+/), name).toEqual(expect.arrayContaining(['苹果', '3', '香蕉', '5']));
      }
    },
    120_000,
  );

  itNeeds(
    ['calc', 'noto-cjk'],
    "prints no page header or footer a spreadsheet does not set, not Calc's sheet name and Page 1",
    async () => {
      const csv = join(dir, 'sheet.csv');
      await writeFile(csv, '名称,数量\n苹果,3\n香蕉,5\n');
      const ods = join(dir, 'unstyled.ods');
      await writeFile(ods, spreadsheetOds());
      // an HTML table saved as .xls, as web applications export them
      const html = join(dir, 'exported.xls');
      await writeFile(html, '<html><body><table><tr><td>苹果</td><td>3</td></tr></table></body></html>');
      // two at a time, as the engine's two LibreOffice slots take them
      const [fromCsv, fromOds, fromHtml] = await Promise.all([
        converter.convertDocument({ sourcePath: csv, ext: 'csv', outDir: outDir() }),
        converter.convertDocument({ sourcePath: ods, ext: 'ods', outDir: outDir() }),
        converter.convertDocument({ sourcePath: html, ext: 'xls', outDir: outDir() }),
      ]);
      expect(fromCsv.text).toContain('香蕉');
      // the sheet of a CSV is named after the scratch file, document.csv
      expect(fromCsv.text).not.toContain('document');
      expect(fromCsv.text).not.toContain('Page');

      expect(fromOds.text).toContain('苹果');
      expect(fromOds.text).not.toContain('销售表');
      expect(fromOds.text).not.toContain('Page');

      expect(fromHtml.text).toContain('苹果');
      expect(fromHtml.text).not.toContain('Sheet1');
      expect(fromHtml.text).not.toContain('Page');
    },
    120_000,
  );

  itNeeds(
    ['calc', 'noto-cjk'],
    'keeps the page header and footer a spreadsheet sets in its default page style',
    async () => {
      const ods = join(dir, 'styled.ods');
      await writeFile(
        ods,
        spreadsheetOds(
          '<office:automatic-styles><style:page-layout style:name="pm1">' +
            '<style:header-style><style:header-footer-properties fo:min-height="0.75cm"/></style:header-style>' +
            '<style:footer-style><style:header-footer-properties fo:min-height="0.75cm"/></style:footer-style>' +
            '</style:page-layout></office:automatic-styles>' +
            '<office:master-styles><style:master-page style:name="Default" style:page-layout-name="pm1">' +
            '<style:header><text:p>季度报表</text:p></style:header><style:footer><text:p>财务部编制</text:p></style:footer>' +
            '</style:master-page></office:master-styles>',
        ),
      );
      const result = await converter.convertDocument({ sourcePath: ods, ext: 'ods', outDir: outDir() });
      expect(result.text).toContain('苹果');
      expect(result.text).toContain('季度报表');
      expect(result.text).toContain('财务部编制');
    },
    120_000,
  );

  itNeeds(
    ['writer', 'noto-cjk'],
    'kills soffice.bin at the time limit, then converts the next documents, two at once on two profiles, neither losing its output',
    async () => {
      const error = await conversionFailure(
        converter.convertDocument({
          sourcePath: fixture('chinese.docx'),
          ext: 'docx',
          outDir: outDir(),
          limits: { timeoutMs: 250 },
        }),
      );
      expect(error).toMatchObject({ reason: 'timeout', message: '文档转换超时' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(processesMentioning(workDir)).toEqual([]);
      const both = await Promise.all(
        [0, 1].map(() =>
          converter.convertDocument({ sourcePath: fixture('chinese.docx'), ext: 'docx', outDir: outDir() }),
        ),
      );
      expect(both.map((result) => result.pages)).toEqual([3, 3]);
      // The engine's own profiles folder (another engine on the machine has its own).
      const profiles = (await readdir(workDir)).filter((name) => name.startsWith(`profiles-${process.pid}-`));
      expect(profiles).toHaveLength(1);
      expect((await readdir(join(workDir, profiles[0]!))).sort()).toEqual([
        'fonts.conf',
        'libreoffice-0',
        'libreoffice-1',
      ]);
    },
    120_000,
  );
});

describe(tools.calibre ? `calibre ${tools.calibre.version}` : `calibre (${SKIP_CALIBRE})`, () => {
  let converter: DocumentConverter;
  let workDir: string;
  beforeAll(() => {
    workDir = join(dir, 'calibre');
    converter = createDocumentConverter({ workers: 2, workDir });
  });
  afterAll(async () => {
    await converter?.close();
  });

  itNeeds(
    ['calibre', 'noto-cjk'],
    'turns a KF8 book (azw3) into a kept PDF, then pages and text',
    async () => {
      const out = outDir();
      const result = await converter.convertDocument({ sourcePath: fixture('chinese.azw3'), ext: 'azw3', outDir: out });
      expect(result).toMatchObject({ converter: 'calibre', pdfFile: 'document.pdf', width: 595, height: 842 });
      expect(result.text).toContain(BODY_WORD);
      await expectPagesOfPdf(result.text, join(out, 'document.pdf'));
    },
    120_000,
  );

  /** Page 1 of an EPUB calibre made, converted: its cover image, drawn, and no text (MuPDF's `[image]` was). */
  async function expectCoverImageOnPage1(epub: Buffer): Promise<{ r: number; g: number; b: number }> {
    const out = outDir();
    const sourcePath = join(dir, `calibre-${outputs}.epub`);
    await writeFile(sourcePath, epub);
    const result = await converter.convertDocument({ sourcePath, ext: 'epub', outDir: out });
    expect(result).toMatchObject({ converter: 'mupdf', width: 420, height: 595 });
    const texts = result.text.split('\f');
    expect(texts[0]).toBe('');
    expect(texts[1]).toContain('第一章开端');
    const page1 = await readFile(join(out, result.pageFiles[0]!.file));
    const svg = (result.pageFiles[0]!.kind === 'svg-gzip' ? gunzipSync(page1) : page1).toString('utf8');
    expect(svg).toMatch(/<image\b/);
    const { channels } = await sharp(join(out, result.cover.png)).stats();
    const [r, g, b] = channels.map((channel) => channel.mean) as [number, number, number];
    return { r, g, b };
  }

  itNeeds(
    ['calibre'],
    "an EPUB calibre made opens on its cover: the inline <svg> of calibre's cover page drawn as its image",
    async () => {
      // The cover, 300×400 px, is drawn the page's width (420 × 560 pt of 420 × 595): red all but the bottom strip.
      const red = await expectCoverImageOnPage1(await calibreEpub(tools.calibre!.path, 'red'));
      expect(red.r).toBeGreaterThan(COVER_RED.r - 5);
      expect(red.g).toBeLessThan(COVER_RED.g + 40);
      expect(red.b).toBeLessThan(COVER_RED.b + 40);
      // calibre's own cover, drawn from the title when none is given: not a white page. calibre
      // picks its colours at random, some pale (a mean of 221 was seen), so only white is refused.
      const drawn = await expectCoverImageOnPage1(await calibreEpub(tools.calibre!.path, 'calibre'));
      expect(Math.min(drawn.r, drawn.g, drawn.b)).toBeLessThan(250);
    },
    60_000,
  );

  itNeeds(
    ['calibre'],
    'kills ebook-convert and its children when the caller aborts',
    async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 500);
      const error = await conversionFailure(
        converter.convertDocument({
          sourcePath: fixture('chinese.azw3'),
          ext: 'azw3',
          outDir: outDir(),
          signal: controller.signal,
        }),
      );
      expect(error).toMatchObject({ reason: 'aborted', message: '文档转换已取消' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(processesMentioning(workDir)).toEqual([]);
    },
    120_000,
  );
});
