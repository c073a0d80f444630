// Markdown tables and figures, readable in a terminal and pasteable into bench/README.md.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join('\n');
}

export const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
export const kib = (bytes: number) => (bytes / 1024).toFixed(1);
export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
export const ratio = (value: number, reference: number) =>
  reference > 0 ? `${(value / reference).toFixed(2)}×` : 'n/a';

export function heading(title: string): void {
  console.log(`\n## ${title}\n`);
}

export function machineDescription(extra: Record<string, string>): string {
  const cpus = os.cpus();
  let distro = os.type();
  try {
    distro = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? distro;
  } catch {
    // not Linux: the kernel type will do
  }
  const lines = {
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    os: `${distro}, kernel ${os.release()}`,
    node: process.version,
    ...extra,
  };
  return Object.entries(lines)
    .map(([key, value]) => `- ${key}: ${value}`)
    .join('\n');
}
