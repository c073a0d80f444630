import { spawn } from 'node:child_process';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConversionError, MISSING_CONVERTER_MESSAGES, abortReason } from './errors';

// LibreOffice and calibre turn what MuPDF cannot open into a PDF. Each runs as its own process
// group, so a time limit or an abort kills it with every child it started, and at most
// `concurrency` of them run at once (each uses 200+ MB). What they need, as measured, is handled
// here: one LibreOffice profile per slot (a profile serves one running LibreOffice at a time),
// soffice.bin spawned directly, exit code 81 on a fresh profile (the profile was made; run again),
// a fontconfig alias for the usual Chinese font names, and calibre's QtWebEngine flags when
// running as root.

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
      let outcome = await runProcess(tool.path, args, env, signal, nice);
      if (outcome.code === RESTART_REQUESTED) outcome = await runProcess(tool.path, args, env, signal, nice);
      const pdf = join(outDir, `${basename(input, extname(input))}.pdf`);
      // LibreOffice exits 0 even when it could not load the file: the PDF is the proof.
      const made = await stat(pdf).catch(() => null);
      if (!made?.size)
        throw new ConversionError('converter-failed', {
          detail: `LibreOffice exit ${outcome.code}: ${outcome.output}`,
          message: 'LibreOffice 无法转换此文档',
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
          message: 'calibre 无法转换此电子书',
        });
      }
      return output;
    });
  }
}
