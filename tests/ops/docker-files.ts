// Readers for the operator files that cannot be run here (no Docker engine): the Dockerfile's
// stages and instructions, .dockerignore, and the compose table of docs/operations.md.

export interface Instruction {
  keyword: string;
  /** the arguments as written, continuation lines joined */
  args: string;
}

export interface Stage {
  image: string;
  name: string | undefined;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARG defaults declared before the first FROM */
  globalArgs: Record<string, string>;
  stages: Stage[];
}

function substitute(value: string, args: Record<string, string>): string {
  return value.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (whole, braced: string | undefined, bare: string | undefined) => args[(braced ?? bare)!] ?? whole,
  );
}

export function parseDockerfile(text: string): Dockerfile {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(`${pending}${line}`.trim());
    pending = '';
  }
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const space = line.indexOf(' ');
    const keyword = (space === -1 ? line : line.slice(0, space)).toUpperCase();
    const args = space === -1 ? '' : line.slice(space + 1).trim();
    if (keyword === 'FROM') {
      const [image, as, name] = substitute(args, globalArgs).split(/\s+/);
      stages.push({ image: image!, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0 && keyword === 'ARG') {
      const [key, value = ''] = args.split('=');
      globalArgs[key!] = value;
    } else if (stages.length > 0) {
      stages[stages.length - 1]!.instructions.push({ keyword, args });
    }
  }
  return { globalArgs, stages };
}

export interface Copy {
  from: string | undefined;
  sources: string[];
  destination: string;
}

/** COPY [--from=stage] [--chown=…] src… dest, in shell or JSON form. */
export function parseCopy(args: string): Copy {
  let from: string | undefined;
  const words: string[] = [];
  const parts = args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  for (const part of parts) {
    const flag = /^--(\w+)=(.*)$/.exec(part);
    if (flag) {
      if (flag[1] === 'from') from = flag[2];
    } else words.push(part);
  }
  return { from, sources: words.slice(0, -1), destination: words[words.length - 1]! };
}

/** The JSON (exec) form of CMD, HEALTHCHECK … CMD, ENTRYPOINT. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  return JSON.parse(json) as string[];
}

/** ENV key=value pairs (values may be quoted). */
export function parseEnv(args: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const match of args.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
    env[match[1]!] = match[2]!.startsWith('"') ? (JSON.parse(match[2]!) as string) : match[2]!;
  }
  return env;
}

/** Whether .dockerignore keeps a path out of the build context (plain names and prefixes only). */
export function isIgnored(dockerignore: string, path: string): boolean {
  const patterns = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
  return patterns.some((pattern) => {
    if (pattern.startsWith('*.')) return clean.endsWith(pattern.slice(1));
    const p = pattern.replace(/\/$/, '');
    return clean === p || clean.startsWith(`${p}/`);
  });
}

export interface ComposeRow {
  service: string;
  /** undefined: the default (no profile) */
  profile: string | undefined;
  /** undefined: none (a one-shot job, a worker) */
  port: number | undefined;
  /** published on the host, or only reachable from the other services */
  published: boolean;
  volumes: string[];
}

/** The table under "`docker-compose.yml` defines:" in docs/operations.md. */
export function composeTable(readme: string): ComposeRow[] {
  const start = readme.indexOf('`docker-compose.yml` defines:');
  if (start === -1) throw new Error('docs/operations.md has no "`docker-compose.yml` defines:" table');
  const lines = readme.slice(start).split('\n').slice(1);
  const rows: ComposeRow[] = [];
  let inTable = false;
  for (const line of lines) {
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (cells[0] === 'service' || /^-+$/.test(cells[0] ?? '')) continue;
    const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    rows.push({
      service: code(cells[0]!)[0]!,
      profile: code(cells[1]!)[0],
      port: code(cells[2]!)[0] === undefined ? undefined : Number(code(cells[2]!)[0]),
      published: !cells[2]!.includes('internal'),
      volumes: code(cells[3]!),
    });
  }
  return rows;
}

/**
 * What an image reference pulls when nothing overrides it: `${VAR:-default}` read as its
 * default, then the tag (`name:tag`, a port in the registry host is not one) and the digest
 * (`@sha256:…`), each null when absent.
 */
export function imageReference(image: string): { name: string; tag: string | null; digest: string | null } {
  const resolved = image.replace(/\$\{\w+:?-([^}]*)\}/g, '$1');
  const [withTag = '', digest = null] = resolved.split('@');
  const slash = withTag.lastIndexOf('/');
  const colon = withTag.indexOf(':', slash + 1);
  return colon === -1
    ? { name: withTag, tag: null, digest }
    : { name: withTag.slice(0, colon), tag: withTag.slice(colon + 1), digest };
}

/**
 * A compose value as Compose interpolates it from `env` (the shell and `.env`): `$$`, `$VAR`,
 * `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:+replacement}`, `${VAR+replacement}`,
 * the operands themselves interpolated (nested). An unset variable reads as empty.
 */
export function interpolate(value: string, env: Record<string, string>): string {
  let out = '';
  let at = 0;
  while (at < value.length) {
    const dollar = value.indexOf('$', at);
    if (dollar === -1) return out + value.slice(at);
    out += value.slice(at, dollar);
    if (value[dollar + 1] === '$') {
      out += '$';
      at = dollar + 2;
      continue;
    }
    const bare = /^\$([A-Za-z_]\w*)/.exec(value.slice(dollar));
    if (bare) {
      out += env[bare[1]!] ?? '';
      at = dollar + bare[0].length;
      continue;
    }
    if (value[dollar + 1] !== '{') throw new Error(`cannot read "${value.slice(dollar)}"`);
    // The braced expression ends at the brace that closes it, past any nested ones.
    let depth = 0;
    let end = dollar + 1;
    for (; end < value.length; end += 1) {
      if (value[end] === '{') depth += 1;
      else if (value[end] === '}' && --depth === 0) break;
    }
    const expression = /^([A-Za-z_]\w*)(?:(:?[-+])([\s\S]*))?$/.exec(value.slice(dollar + 2, end));
    if (!expression) throw new Error(`cannot read "${value.slice(dollar, end + 1)}"`);
    const [, name, operator, operand = ''] = expression;
    const set = env[name!];
    const present = operator?.startsWith(':') ? Boolean(set) : set !== undefined;
    if (operator?.endsWith('-')) out += present ? set : interpolate(operand, env);
    else if (operator?.endsWith('+')) out += present ? interpolate(operand, env) : '';
    else out += set ?? '';
    at = end + 1;
  }
  return out;
}
