// The options of the operator's commands (`npm run db:copy`, `blobs:copy`, `admin:password`):
// node's parseArgs, strict, so that a mistyped option (`--form` for `--from`), a stray word or
// `--help` stops the command before it does anything, rather than being ignored while the
// command goes on with its defaults (another database copied, the admin's password changed).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError } from '../backend/config';

type StringOptions = Record<string, { type: 'string' }>;

/**
 * The values of a command's options, or null when `--help` asked for its usage (then printed).
 * Anything else than the options named is refused with a ConfigError that gives the usage.
 */
export function commandOptions<O extends StringOptions>(
  argv: readonly string[],
  options: O,
  usage: string,
): Partial<Record<keyof O, string>> | null {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))
      throw new ConfigError(`${(error as Error).message}\nusage: ${usage}`);
    throw error;
  }
  if (values.help) {
    process.stdout.write(`usage: ${usage}\n`);
    return null;
  }
  return values as Partial<Record<keyof O, string>>;
}

/**
 * A command as the operator can run it where it runs: from the server bundle (a build, the Docker
 * image, which has neither tsx nor scripts/), node on the bundle; from source, the npm script, with
 * the `--` npm needs before the command's own options when it takes some.
 */
export function commandName(npmScript: string, moduleUrl: string, takesOptions: boolean): string {
  const file = fileURLToPath(moduleUrl);
  if (file.endsWith('.mjs')) return `node ${relative(process.cwd(), file)}`;
  return `npm run ${npmScript}${takesOptions ? ' --' : ''}`;
}
