// How far V8 lets a process's heap grow past what it keeps alive. By default it lets the old
// generation grow up to four times the live set before the next full collection when requests
// come fast: under a mixed load of 200 connections the site's live ~60 MiB stood in an old
// generation of up to 200 MiB, and its RSS peaked 100 MiB higher than with a fixed factor of
// 1.5, at the same request rate (docs/performance.md §3). V8 reads the factor at
// each collection, so it can be set once the process runs; a `--heap-growing-percent` given on
// node's command line wins.
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/** Caps the old generation's growth between full collections at 1.5× what survived the last one. */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith('--heap-growing-percent') || arg.startsWith('--heap_growing_percent')))
    return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
