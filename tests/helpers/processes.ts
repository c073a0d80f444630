import { spawn } from 'node:child_process';

// A command run as an operator runs it, with only the environment it is given (and PATH), for
// the tests of the start commands.

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` until it exits, or stops it (SIGINT) once its stdout matches `until` (or its
 * stderr `untilError`); a process still running after `killAfterMs` is killed.
 */
export function runUntil(
  command: string,
  args: readonly string[],
  opts: { env: Record<string, string>; until: RegExp | null; untilError?: RegExp; cwd?: string; killAfterMs: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (opts.until && opts.until.test(stdout)) child.kill('SIGINT');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (opts.untilError && opts.untilError.test(stderr)) child.kill('SIGINT');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
