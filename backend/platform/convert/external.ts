import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONVERTER_FAILED_MESSAGES, ConversionError, MISSING_CONVERTER_MESSAGES, abortReason } from './errors';

// LibreOffice and calibre turn what MuPDF cannot open into a PDF. Each runs as its own process
// group, so a time limit or an abort kills it with every child it started, and at most
// `concurrency` of them run at once (each uses 200+ MB). What they need, as measured, is handled
// here: one LibreOffice profile per slot (a profile serves one running LibreOffice at a time),
// soffice.bin spawned directly, exit code 81 on a fresh profile (the profile was made; run again),
// a fontconfig alias for the usual Chinese font names, Calc's built-in page header and footer
// switched off (below), and calibre's QtWebEngine flags when running as root.

export interface ExternalTool {
  path: string;
  version: string;
}

/** Kills every process group still running when this process exits, however it exits. */
const runningGroups = new Set<number>();
process.on('exit', () => {
  for (const pid of runningGroups) killGroup(pid);
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export interface ProcessOutcome {
  code: number | null;
  /** the last 8 KB of stdout and stderr, for the error detail */
  output: string;
}

const OUTPUT_TAIL = 8 * 1024;

/**
 * Runs a program in a process group of its own; the signal kills the whole group. `nice` is
 * added to its nice value (0–19) from its start: coreutils' `nice` sets it, then becomes the
 * program, so its threads and children have it too. (Lowering it from here once the program
 * had started raced with the program: a quick one read, or started threads at, its old value.)
 */
export function runProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
  nice = 0,
): Promise<ProcessOutcome> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const [file, argv] = nice > 0 ? ['nice', ['-n', String(nice), command, ...args]] : [command, args];
    const child = spawn(file, argv, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const onAbort = () => {
      if (child.pid !== undefined) killGroup(child.pid);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) runningGroups.add(child.pid);
    child.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(new ConversionError('converter-failed', { detail: `${command}: ${error.message}` }));
    });
    child.once('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (child.pid !== undefined) {
        runningGroups.delete(child.pid);
        // Children the program left behind go with it.
        killGroup(child.pid);
      }
      if (signal.aborted) reject(abortReason(signal));
      else resolve({ code, output });
    });
  });
}

/** A fixed number of numbered slots; a slot owns its LibreOffice profile while it is held. */
export class Slots {
  private readonly free: number[];
  private readonly waiting: { take: (slot: number) => void; signal: AbortSignal; onAbort: () => void }[] = [];

  constructor(count: number) {
    this.free = Array.from({ length: Math.max(1, Math.floor(count)) }, (_, i) => i);
  }

  async acquire(signal: AbortSignal): Promise<number> {
    if (signal.aborted) throw abortReason(signal);
    const slot = this.free.shift();
    if (slot !== undefined) return slot;
    return new Promise((resolve, reject) => {
      const waiter = {
        signal,
        take: (taken: number) => {
          signal.removeEventListener('abort', waiter.onAbort);
          resolve(taken);
        },
        onAbort: () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(abortReason(signal));
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  release(slot: number): void {
    const next = this.waiting.shift();
    if (next) next.take(slot);
    else this.free.push(slot);
  }
}

// Documents from Windows ask for fonts this machine does not have; fontconfig would pick any
// CJK face (LibreOffice took the Japanese one). Serif names go to Noto Serif CJK, sans names to
// Noto Sans CJK (Debian's fonts-noto-cjk), simplified or traditional as the name implies.
const FONT_ALIASES: Record<string, readonly string[]> = {
  'Noto Serif CJK SC': [
    '宋体',
    'SimSun',
    '新宋体',
    'NSimSun',
    '仿宋',
    'FangSong',
    '仿宋_GB2312',
    'FangSong_GB2312',
    '楷体',
    'KaiTi',
    '楷体_GB2312',
    'KaiTi_GB2312',
    '华文宋体',
    'STSong',
    '华文中宋',
    'STZhongsong',
    '华文仿宋',
    'STFangsong',
    '华文楷体',
    'STKaiti',
    'Songti SC',
  ],
  'Noto Sans CJK SC': [
    '黑体',
    'SimHei',
    '微软雅黑',
    'Microsoft YaHei',
    '等线',
    'DengXian',
    '华文黑体',
    'STHeiti',
    '华文细黑',
    'STXihei',
    '幼圆',
    'YouYuan',
    'PingFang SC',
    'Hiragino Sans GB',
    '思源黑体',
    'Source Han Sans SC',
  ],
  'Noto Serif CJK TC': ['細明體', 'MingLiU', '新細明體', 'PMingLiU', '標楷體', 'DFKai-SB'],
  'Noto Sans CJK TC': ['微軟正黑體', 'Microsoft JhengHei'],
};

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function fontconfigFile(): string {
  const aliases = Object.entries(FONT_ALIASES).flatMap(([target, names]) =>
    names.map(
      (name) =>
        `  <alias binding="same"><family>${escapeXml(name)}</family><prefer><family>${target}</family></prefer></alias>`,
    ),
  );
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<fontconfig>',
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    ...aliases,
    '</fontconfig>',
    '',
  ].join('\n');
}

// Calc gives a sheet without a page setup of its own (CSV, TSV, an .ods without page styles, an
// HTML or text table named .xls) its built-in page style, which prints the sheet name as header
// (`document` for a CSV: the scratch file's name) and the English `Page 1` as footer on every
// page. A Basic macro in each profile, bound to the application's OnLoadFinished event (it runs
// inside --convert-to, between loading and export), switches off the header or footer of
// Calc's own page styles (Default, Report) that is still what a new spreadsheet has. Headers and
// footers the file sets are kept, so is every one of an .xls or .xlsx (their page styles are the
// importer's `PageStyle_…`, even for Excel's "Sheet1" / "Page 1" presets). A Basic error would
// open a dialog that never closes without a display: every error ends the macro silently, the
// built-in header then printed. The blank spreadsheet makes the comparison hold in any UI language.
const PAGE_STYLE_MACRO = [
  'Function Contents(oContent As Object) As String',
  '  Dim s As String, oText As Object, oFields As Object, nFields As Integer',
  '  For Each oText In Array(oContent.LeftText, oContent.CenterText, oContent.RightText)',
  '    nFields = 0',
  '    oFields = oText.TextFields.createEnumeration()',
  '    Do While oFields.hasMoreElements()',
  '      oFields.nextElement()',
  '      nFields = nFields + 1',
  '    Loop',
  '    s = s & oText.String & Chr(1) & nFields & Chr(1)',
  '  Next',
  '  Contents = s',
  'End Function',
  '',
  'Sub DropBuiltInHeaderFooter(oEvent As Object)',
  '  On Error GoTo Done',
  '  Dim oDoc As Object',
  '  oDoc = oEvent.Source',
  '  If Not oDoc.supportsService("com.sun.star.sheet.SpreadsheetDocument") Then Exit Sub',
  '  Dim aHidden(0) As New com.sun.star.beans.PropertyValue',
  '  aHidden(0).Name = "Hidden"',
  '  aHidden(0).Value = True',
  '  Dim oBlank As Object, oBuiltIn As Object, oStyles As Object, oStyle As Object, sName As Variant',
  '  oBlank = StarDesktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, aHidden())',
  '  oStyles = oDoc.StyleFamilies.getByName("PageStyles")',
  '  For Each sName In Array("Default", "Report")',
  '    If oStyles.hasByName(sName) Then',
  '      oStyle = oStyles.getByName(sName)',
  '      oBuiltIn = oBlank.StyleFamilies.getByName("PageStyles").getByName(sName)',
  '      If oStyle.HeaderIsOn And Contents(oStyle.RightPageHeaderContent) = Contents(oBuiltIn.RightPageHeaderContent) Then',
  '        If oStyle.HeaderIsShared Or Contents(oStyle.LeftPageHeaderContent) = Contents(oBuiltIn.LeftPageHeaderContent) Then oStyle.HeaderIsOn = False',
  '      End If',
  '      If oStyle.FooterIsOn And Contents(oStyle.RightPageFooterContent) = Contents(oBuiltIn.RightPageFooterContent) Then',
  '        If oStyle.FooterIsShared Or Contents(oStyle.LeftPageFooterContent) = Contents(oBuiltIn.LeftPageFooterContent) Then oStyle.FooterIsOn = False',
  '      End If',
  '    End If',
  '  Next',
  'Done:',
  '  On Error Resume Next',
  '  If Not IsNull(oBlank) Then oBlank.close(True)',
  'End Sub',
].join('\n');

const LIBRARY_DTD = '"-//OpenOffice.org//DTD OfficeDocument 1.0//EN"';
const LIBRARIES =
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE library:libraries PUBLIC ${LIBRARY_DTD} "libraries.dtd">\n` +
  '<library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink">\n' +
  ' <library:library library:name="Standard" library:link="false"/>\n</library:libraries>\n';
const LIBRARY = (modules: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE library:library PUBLIC ${LIBRARY_DTD} "library.dtd">\n` +
  '<library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" library:readonly="false" library:passwordprotected="false">' +
  `${modules}</library:library>\n`;

/** The user's Basic libraries of a profile: Standard, holding the module PageStyles alone. */
const PROFILE_BASIC: Record<string, string> = {
  'basic/script.xlc': LIBRARIES,
  'basic/dialog.xlc': LIBRARIES,
  'basic/Standard/script.xlb': LIBRARY('\n <library:element library:name="PageStyles"/>\n'),
  'basic/Standard/dialog.xlb': LIBRARY(''),
  'basic/Standard/PageStyles.xba':
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE script:module PUBLIC ${LIBRARY_DTD} "module.dtd">\n` +
    '<script:module xmlns:script="http://openoffice.org/2000/script" script:name="PageStyles" script:language="StarBasic">' +
    `${escapeXml(PAGE_STYLE_MACRO)}\n</script:module>\n`,
};

const ON_LOAD_BINDING =
  '<item oor:path="/org.openoffice.Office.Events/ApplicationEvents/Bindings"><node oor:name="OnLoadFinished" oor:op="replace">' +
  '<prop oor:name="BindingURL" oor:op="fuse"><value>' +
  escapeXml('vnd.sun.star.script:Standard.PageStyles.DropBuiltInHeaderFooter?language=Basic&location=application') +
  '</value></prop></node></item>';

/**
 * Puts the macro and its event binding into a LibreOffice profile, new or made earlier: the
 * Basic files are written over, the binding is added to the settings LibreOffice keeps there.
 */
async function prepareLibreofficeProfile(profile: string): Promise<void> {
  for (const [path, text] of Object.entries(PROFILE_BASIC)) {
    const file = join(profile, 'user', path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  const settings = join(profile, 'user', 'registrymodifications.xcu');
  const current = await readFile(settings, 'utf8').catch(() => null);
  if (current?.includes(ON_LOAD_BINDING)) return;
  const items = current?.includes('</oor:items>')
    ? current
    : '<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n</oor:items>\n';
  await writeFile(settings, items.replace('</oor:items>', `${ON_LOAD_BINDING}\n</oor:items>`));
}

export interface ExternalConverterOptions {
  /** profiles of LibreOffice and calibre, one per slot, and the generated fonts.conf */
  stateDir: string;
  libreoffice: ExternalTool | undefined;
  calibre: ExternalTool | undefined;
  /** LibreOffice or calibre processes at once */
  concurrency: number;
  /** added to their nice value (0–19), as to the MuPDF threads'; default 0 */
  niceIncrement?: number;
}

/** LibreOffice's exit code when it has just created a new profile and wants to be started again. */
const RESTART_REQUESTED = 81;

export class ExternalConverters {
  private readonly slots: Slots;
  private prepared: Promise<string> | undefined;

  constructor(private readonly options: ExternalConverterOptions) {
    this.slots = new Slots(options.concurrency);
  }

  /** The programs found by the latest detection (one installed or removed since start). */
  useTools(tools: { libreoffice?: ExternalTool; calibre?: ExternalTool }): void {
    this.options.libreoffice = tools.libreoffice;
    this.options.calibre = tools.calibre;
  }

  /** The generated fonts.conf, written once. */
  private fontsConf(): Promise<string> {
    this.prepared ??= (async () => {
      await mkdir(this.options.stateDir, { recursive: true });
      const file = join(this.options.stateDir, 'fonts.conf');
      await writeFile(file, fontconfigFile());
      return file;
    })();
    return this.prepared;
  }

  private async withSlot<T>(signal: AbortSignal, work: (slot: number) => Promise<T>): Promise<T> {
    const slot = await this.slots.acquire(signal);
    try {
      return await work(slot);
    } finally {
      this.slots.release(slot);
    }
  }

  /**
   * `input` → a PDF in `outDir` (returned); `filter` forces LibreOffice's import filter.
   * ConversionError('converter-missing') without LibreOffice, ('converter-failed') when it makes no PDF.
   */
  async libreofficeToPdf(input: string, outDir: string, signal: AbortSignal, filter?: string): Promise<string> {
    const tool = this.options.libreoffice;
    if (!tool)
      throw new ConversionError('converter-missing', {
        detail: 'LibreOffice',
        message: MISSING_CONVERTER_MESSAGES.libreoffice,
      });
    const fontsConf = await this.fontsConf();
    return this.withSlot(signal, async (slot) => {
      const profile = join(this.options.stateDir, `libreoffice-${slot}`);
      // A killed run leaves its lock behind; the slot is ours alone while we hold it.
      await rm(join(profile, '.lock'), { force: true });
      const args = [
        `-env:UserInstallation=${pathToFileURL(profile).href}`,
        '--headless',
        '--invisible',
        '--nologo',
        '--nodefault',
        '--nofirststartwizard',
        '--norestore',
        '--nolockcheck',
        ...(filter ? [`--infilter=${filter}`] : []),
        '--convert-to',
        'pdf',
        '--outdir',
        outDir,
        input,
      ];
      const env = { ...process.env, FONTCONFIG_FILE: fontsConf };
      const nice = this.options.niceIncrement ?? 0;
      // A profile's first start lays LibreOffice's own Basic libraries over the macro: put it back each time.
      const run = async () => {
        await prepareLibreofficeProfile(profile);
        return runProcess(tool.path, args, env, signal, nice);
      };
      let outcome = await run();
      if (outcome.code === RESTART_REQUESTED) outcome = await run();
      const pdf = join(outDir, `${basename(input, extname(input))}.pdf`);
      // LibreOffice exits 0 even when it could not load the file: the PDF is the proof.
      const made = await stat(pdf).catch(() => null);
      if (!made?.size)
        throw new ConversionError('converter-failed', {
          detail: `LibreOffice exit ${outcome.code}: ${outcome.output}`,
          message: CONVERTER_FAILED_MESSAGES.libreoffice,
        });
      return pdf;
    });
  }

  /** An ebook → a PDF at `output` with calibre's ebook-convert. */
  async calibreToPdf(input: string, output: string, scratchDir: string, signal: AbortSignal): Promise<string> {
    const tool = this.options.calibre;
    if (!tool)
      throw new ConversionError('converter-missing', {
        detail: 'calibre',
        message: MISSING_CONVERTER_MESSAGES.calibre,
      });
    const fontsConf = await this.fontsConf();
    return this.withSlot(signal, async (slot) => {
      const env = {
        ...process.env,
        FONTCONFIG_FILE: fontsConf,
        CALIBRE_CONFIG_DIRECTORY: join(this.options.stateDir, `calibre-${slot}`),
        CALIBRE_TEMP_DIR: scratchDir,
        // calibre renders PDFs with QtWebEngine, whose sandbox refuses to run as root.
        QTWEBENGINE_CHROMIUM_FLAGS: '--no-sandbox',
        QT_QPA_PLATFORM: 'offscreen',
      };
      const outcome = await runProcess(
        tool.path,
        [input, output, '--paper-size', 'a4'],
        env,
        signal,
        this.options.niceIncrement ?? 0,
      );
      if (/DRMError/.test(outcome.output)) throw new ConversionError('drm-protected', { detail: outcome.output });
      const made = await stat(output).catch(() => null);
      if (outcome.code !== 0 || !made?.size) {
        throw new ConversionError('converter-failed', {
          detail: `calibre exit ${outcome.code}: ${outcome.output}`,
          message: CONVERTER_FAILED_MESSAGES.calibre,
        });
      }
      return output;
    });
  }
}
