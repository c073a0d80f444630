// The programs the benchmark needs besides Node. It installs none of them: when one is
// missing it says which and how to get it, and stops.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { inspectNginx, type NginxBinary } from './nginx';

export class MissingTool extends Error {}

export interface Tools {
  nginx: NginxBinary;
  wrk: string;
  wrkVersion: string;
}

function locate(name: string, candidates: string[]): string | undefined {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  return onPath || candidates.find((candidate) => existsSync(candidate));
}

export function requireTools(): Tools {
  const problems: string[] = [];
  const missingPackages: string[] = [];

  const nginxPath = locate('nginx', ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']);
  let nginx: NginxBinary | undefined;
  if (!nginxPath) {
    problems.push(
      'nginx: the reference server (the benchmark starts its own instance on loopback; the system service may stay stopped)',
    );
    missingPackages.push('nginx');
  } else {
    const inspected = inspectNginx(nginxPath);
    if (typeof inspected === 'string') problems.push(inspected);
    else nginx = inspected;
  }

  const wrk = locate('wrk', ['/usr/bin/wrk', '/usr/local/bin/wrk']);
  if (!wrk) {
    problems.push(
      'wrk: the load generator for throughput (autocannon alone cannot saturate a server with 100 KB answers)',
    );
    missingPackages.push('wrk');
  }

  if (problems.length > 0 || !nginx || !wrk) {
    const install =
      missingPackages.length > 0 ? `\nOn Debian/Ubuntu, as root: apt-get install -y ${missingPackages.join(' ')}` : '';
    throw new MissingTool(
      `The benchmarks need programs that are not here:\n${problems.map((p) => `  - ${p}`).join('\n')}${install}`,
    );
  }
  const version = spawnSync(wrk, ['--version'], { encoding: 'utf8' });
  const wrkVersion = /wrk (\S+)/.exec(`${version.stdout}${version.stderr}`)?.[1] ?? 'unknown';
  return { nginx, wrk, wrkVersion };
}

export interface Mutool {
  path: string;
  version: string;
}

/** Debian's mutool (mupdf-tools), the reference of the conversion benchmark. */
export function requireMutool(): Mutool {
  const path = locate('mutool', ['/usr/bin/mutool', '/usr/local/bin/mutool']);
  if (!path) {
    throw new MissingTool(
      'The conversion benchmark needs mutool, the reference it is measured against:\n' +
        "  - mutool: MuPDF's command-line tool (mutool convert -F svg)\nOn Debian/Ubuntu, as root: apt-get install -y mupdf-tools",
    );
  }
  const version = spawnSync(path, ['-v'], { encoding: 'utf8' });
  return { path, version: /version (\S+)/.exec(`${version.stdout}${version.stderr}`)?.[1] ?? 'unknown' };
}
