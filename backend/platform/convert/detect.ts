import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ExternalTool } from './external';

// Which converters this install has: MuPDF always (an npm dependency), LibreOffice and calibre
// when installed. The converter asks again every 30 s, and at once when a conversion needs one
// the last answer lacked; `GET /api/v1/envs` reports the same answer.

export interface ConverterReport {
  mupdf: { version: string };
  libreoffice?: ExternalTool;
  calibre?: ExternalTool;
}

export interface ToolPaths {
  /** soffice, soffice.bin, or the LibreOffice program directory; null: do not use LibreOffice */
  libreofficePath?: string | null;
  /** ebook-convert or the directory holding it; null: do not use calibre */
  calibrePath?: string | null;
}

const run = promisify(execFile);
const VERSION_TIMEOUT_MS = 30_000;

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && (await isExecutable(join(dir, name)))) return join(dir, name);
  }
  return undefined;
}

async function firstExecutable(candidates: (string | undefined)[]): Promise<string | undefined> {
  for (const candidate of candidates) if (candidate && (await isExecutable(candidate))) return candidate;
  return undefined;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** soffice.bin beside the `soffice` wrapper (a symlink on Debian) or inside a LibreOffice directory. */
async function sofficeBinFor(path: string): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (!real) return undefined;
  if (await isDirectory(real))
    return firstExecutable([join(real, 'soffice.bin'), join(real, 'program', 'soffice.bin')]);
  if (basename(real) === 'soffice.bin') return firstExecutable([real]);
  return firstExecutable([join(dirname(real), 'soffice.bin')]);
}

async function findLibreOffice(configured: string | undefined): Promise<string | undefined> {
  if (configured) return sofficeBinFor(configured);
  for (const name of ['soffice', 'libreoffice']) {
    const wrapper = await onPath(name);
    const bin = wrapper && (await sofficeBinFor(wrapper));
    if (bin) return bin;
  }
  const opt = (await readdir('/opt').catch(() => [] as string[]))
    .filter((name) => name.startsWith('libreoffice'))
    .map((name) => `/opt/${name}/program/soffice.bin`);
  return firstExecutable([
    '/usr/lib/libreoffice/program/soffice.bin',
    '/usr/local/lib/libreoffice/program/soffice.bin',
    ...opt,
  ]);
}

async function findCalibre(configured: string | undefined): Promise<string | undefined> {
  if (configured)
    return (await isDirectory(configured))
      ? firstExecutable([join(configured, 'ebook-convert')])
      : firstExecutable([configured]);
  return firstExecutable([await onPath('ebook-convert'), '/opt/calibre/ebook-convert']);
}

/**
 * Each program's version as it answered `--version`, kept while its file stays the same one
 * (device, inode, size, change time): every backend of a process asks at its start and again
 * every 30 s, and LibreOffice spends about 0.2 s of CPU to say it, calibre 0.15. An upgrade
 * replaces the file, so the new one is asked; a program that did not answer is asked again.
 */
const answered = new Map<string, { file: string; version: string }>();

async function versionOf(path: string, pattern: RegExp): Promise<string | undefined> {
  const file = await stat(path).then(
    (s) => `${s.dev}:${s.ino}:${s.size}:${s.ctimeMs}`,
    () => undefined,
  );
  if (!file) return undefined;
  const known = answered.get(path);
  if (known?.file === file) return known.version;
  try {
    const { stdout } = await run(path, ['--version'], {
      timeout: VERSION_TIMEOUT_MS,
      env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' },
    });
    const version = pattern.exec(stdout)?.[1];
    if (version) answered.set(path, { file, version });
    return version;
  } catch {
    return undefined;
  }
}

async function tool(path: string | undefined, pattern: RegExp): Promise<ExternalTool | undefined> {
  if (!path) return undefined;
  const version = await versionOf(path, pattern);
  return version ? { path, version } : undefined;
}

async function mupdfVersion(): Promise<string> {
  // The package's exports hide package.json; its entry file sits in dist/ beside it.
  const entry = createRequire(import.meta.url).resolve('mupdf');
  const manifest = JSON.parse(await readFile(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** MuPDF's version, and LibreOffice and calibre with their path and version when they answer `--version`. */
export async function detectConverters(paths: ToolPaths = {}): Promise<ConverterReport> {
  const [mupdf, libreoffice, calibre] = await Promise.all([
    mupdfVersion(),
    paths.libreofficePath === null
      ? undefined
      : findLibreOffice(paths.libreofficePath).then((path) => tool(path, /LibreOffice ([\d.]+)/)),
    paths.calibrePath === null
      ? undefined
      : findCalibre(paths.calibrePath).then((path) => tool(path, /calibre ([\d.]+)/)),
  ]);
  return { mupdf: { version: mupdf }, ...(libreoffice ? { libreoffice } : {}), ...(calibre ? { calibre } : {}) };
}
