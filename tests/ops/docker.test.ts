// What can be checked of the Docker files without a Docker engine: the compose file against
// docs/operations.md, the Dockerfile's stages, that everything it copies exists after `npm run build`,
// and that its start command runs the built gateway on production dependencies only, as does the
// command its start names for a lost admin password (`docker compose exec site node …`).
// The build (in a copy of the build context) and `npm ci --omit=dev` are the run's shared ones
// (tests/helpers/production-build.ts), which the browser tests use too.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadBackendConfig } from '../../backend/config';
import { loadGatewayConfig } from '../../gateway/config';
import { productionBuild, productionDependencies } from '../helpers/production-build';
import {
  composeTable,
  execForm,
  imageReference,
  interpolate,
  isIgnored,
  parseCopy,
  parseDockerfile,
  parseEnv,
  type Dockerfile,
  type Stage,
} from './docker-files';
import { freePort } from '../helpers/ports';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SETUP_TIMEOUT_MS = 15 * 60_000;

const readRepo = (path: string) => readFile(join(REPO, path), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  profiles?: string[];
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
  command?: string[];
  entrypoint?: string[];
  depends_on?: Record<string, { condition?: string; required?: boolean }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  deploy?: { replicas?: number };
  pull_policy?: string;
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

describe('docker-compose.yml', () => {
  let compose: ComposeFile;
  let readme: string;

  beforeAll(async () => {
    // Compose resolves YAML merge keys (`<<: *anchor`), as the scale profile's services use them.
    compose = parseYaml(await readRepo('docker-compose.yml'), { merge: true }) as ComposeFile;
    readme = await readRepo('docs/operations.md');
  });

  it('names exactly the services docs/operations.md lists', () => {
    const rows = composeTable(readme);
    expect(rows.map((row) => row.service).sort()).toEqual(Object.keys(compose.services).sort());
  });

  it('gives each service the profile, port and volumes docs/operations.md says', () => {
    for (const row of composeTable(readme)) {
      const service = compose.services[row.service]!;
      if (row.profile === undefined) expect(service.profiles, row.service).toBeUndefined();
      else expect(service.profiles, row.service).toContain(row.profile);

      if (row.port === undefined) {
        expect(service.ports, row.service).toBeUndefined();
        expect(service.expose, row.service).toBeUndefined();
      } else if (row.published) {
        // "${SITE_PORT:-3000}:3000": published on the host, by default on the same port
        const mapping = (service.ports ?? []).map((entry) => /^(?:\$\{\w+:-(\d+)\}|(\d+)):(\d+)$/.exec(String(entry)));
        expect(
          mapping.some((m) => m !== null && Number(m[3]) === row.port && Number(m[1] ?? m[2]) === row.port),
          row.service,
        ).toBe(true);
      } else {
        expect(service.ports, row.service).toBeUndefined();
        expect((service.expose ?? []).map(Number), row.service).toContain(row.port);
      }

      expect(service.volumes ?? [], row.service).toEqual(row.volumes);
      for (const volume of row.volumes) {
        const source = volume.slice(0, volume.indexOf(':'));
        // a named volume must be declared at the top level; a path or variable is a bind mount
        if (/^[\w-]+$/.test(source)) expect(Object.keys(compose.volumes ?? {}), volume).toContain(source);
      }
    }
  });

  it('runs the default service from this repository with the embedded backend unless BACKEND_URL is set', () => {
    const defaults = Object.entries(compose.services).filter(([, service]) => service.profiles === undefined);
    expect(defaults.map(([name]) => name)).toEqual(['site']);
    const site = compose.services.site!;
    expect(site.build).toEqual({
      context: '.',
      args: { OFFICE_CONVERTERS: '${OFFICE_CONVERTERS:-false}', BUILD_HASH: '${BUILD_HASH:-}' },
    });
    expect(site.environment?.BACKEND_URL).toBe('${BACKEND_URL:-}');
    expect(site.volumes).toContain('site-data:/data');
    // Compose interpolates every service, also those of an inactive profile: a required
    // variable (${X:?…}) anywhere would break the default `docker compose up`.
    const text = JSON.stringify(compose);
    expect(text).not.toMatch(/\$\{\w+:?\?/);
  });
});

describe('every compose file', () => {
  it('pulls each image at a concrete tag or digest, never `latest` or no tag', async () => {
    const files = (await readdir(REPO)).filter((name) => /^(docker-)?compose[\w.-]*\.ya?ml$/.test(name));
    expect(files).toContain('docker-compose.yml');
    const pulled: string[] = [];
    for (const file of files) {
      const { services } = parseYaml(await readRepo(file), { merge: true }) as ComposeFile;
      for (const [name, service] of Object.entries(services)) {
        // An image compose builds here, or one it may only find on this machine, is a local name.
        if (
          !service.image ||
          service.build !== undefined ||
          service.pull_policy === 'never' ||
          service.pull_policy === 'build'
        )
          continue;
        const { tag, digest } = imageReference(service.image);
        expect(digest ?? tag, `${file}: ${name} (${service.image})`).toBeTruthy();
        expect(tag, `${file}: ${name} (${service.image})`).not.toBe('latest');
        pulled.push(service.image);
      }
    }
    expect(pulled).toEqual(
      expect.arrayContaining([
        expect.stringContaining('minio/minio:RELEASE.'),
        expect.stringContaining('minio/mc:RELEASE.'),
      ]),
    );
  });

  it('reads image references as compose pulls them', () => {
    expect(imageReference('${MINIO_IMAGE:-quay.io/minio/minio:RELEASE.2025-09-07T16-13-09Z}')).toEqual({
      name: 'quay.io/minio/minio',
      tag: 'RELEASE.2025-09-07T16-13-09Z',
      digest: null,
    });
    expect(imageReference('registry.example.com:5000/nginx')).toEqual({
      name: 'registry.example.com:5000/nginx',
      tag: null,
      digest: null,
    });
    expect(imageReference('postgres:16@sha256:abc')).toEqual({ name: 'postgres', tag: '16', digest: 'sha256:abc' });
  });
});

/** A service's environment as Compose gives it when the shell and `.env` hold `env`. */
function siteEnvironment(service: ComposeService, env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), env)]),
  );
}

describe('docker-compose.yml with the postgres profile', () => {
  let compose: ComposeFile;
  beforeAll(async () => {
    compose = parseYaml(await readRepo('docker-compose.yml'), { merge: true }) as ComposeFile;
  });

  it('runs the official PostgreSQL 15 or 16 image in a volume of its own, health-checked', () => {
    const postgres = compose.services.postgres!;
    expect(postgres.profiles).toEqual(['postgres', 'scale']);
    expect(postgres.image).toMatch(/^postgres:1[56](\.\d+)?$/);
    expect(postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(postgres.healthcheck?.test?.slice(0, 2)).toEqual(['CMD', 'pg_isready']);
    expect(postgres.environment).toMatchObject({
      POSTGRES_USER: 'moredoc',
      POSTGRES_DB: 'moredoc',
      POSTGRES_PASSWORD: '${POSTGRES_PASSWORD:-}',
    });
  });

  it('has site take DATABASE_URL and wait for the database when the profile is on, and only then', () => {
    const site = compose.services.site!;
    expect(site.environment?.DATABASE_URL).toBe('${DATABASE_URL:-}');
    // `required: false`: without the profile the default `docker compose up` starts site alone.
    expect(site.depends_on?.postgres).toEqual({ condition: 'service_healthy', required: false });
  });

  it('gives every process of the image longer than its own 10 s to stop before Compose kills it', () => {
    // SIGTERM: the gateway finishes its requests and the worker its jobs for up to 10 s, then close
    // the database; Compose's default is to kill at 10 s, the moment they would give up.
    for (const name of ['site', 'site-1', 'site-2', 'worker']) {
      const grace = /^(\d+)s$/.exec(compose.services[name]?.stop_grace_period ?? '')?.[1];
      expect(Number(grace), name).toBeGreaterThan(10);
    }
  });

  it('has site take the S3 variables, so that a site whose files moved to a bucket (blobs:copy) reads them there', () => {
    const site = compose.services.site!;
    const S3 = [
      'S3_BUCKET',
      'S3_ENDPOINT',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
      'S3_PREFIX',
    ];
    const env = Object.fromEntries(
      [...S3, 'S3_PRESIGNED_DOWNLOADS', 'S3_CACHE_MB'].map((key) => [key, `${key}-value`]),
    );
    const seen = siteEnvironment(site, env);
    for (const key of Object.keys(env)) expect(seen[key], key).toBe(env[key]);
    // An empty one counts as unset, as the backend reads it.
    expect(siteEnvironment(site, {})).toMatchObject(Object.fromEntries(Object.keys(env).map((key) => [key, ''])));
  });

  it("gives every instance of the image the settings an operator tunes: CLIENT_IPV6_PREFIX to its gateway's and its backend's limits", () => {
    const instances = Object.keys(compose.services).filter(
      (name) => compose.services[name]!.image === 'moredoc-site:latest',
    );
    expect(instances.sort()).toEqual(['site', 'site-1', 'site-2', 'worker']);
    // The scale profile's own secrets beside them, as its `.env` holds them.
    const secrets = { POSTGRES_PASSWORD: 'change-me', S3_SECRET_ACCESS_KEY: 'minio-root-password' };
    const tuned = {
      CLIENT_IPV6_PREFIX: '56',
      SIGN_IN_LIMIT: '20',
      SEARCH_RECORD_LIMIT: '5',
      JWT_EXPIRE_DAYS: '30',
      BODY_TIMEOUT_MS: '60000',
      JOB_LEASE_MS: '45000',
      CONVERT_JOBS: '3',
      DATABASE_POOL_SIZE: '20',
    };
    for (const name of instances) {
      const backend = loadBackendConfig(siteEnvironment(compose.services[name]!, { ...secrets, ...tuned }));
      expect(
        [backend.ipv6Prefix, backend.signInLimit.max, backend.searchRecordLimit, backend.jwtExpireDays],
        name,
      ).toEqual([56, 20, 5, 30]);
      expect([backend.bodyTimeoutMs, backend.jobs.leaseMs, backend.convert.jobs], name).toEqual([60000, 45000, 3]);
      if (name !== 'site') expect(backend.database?.poolSize, name).toBe(20);
      // Unset, or empty in `.env`: the Configuration table's defaults.
      expect(loadBackendConfig(siteEnvironment(compose.services[name]!, secrets)).ipv6Prefix, name).toBe(64);
    }
    for (const name of ['site', 'site-1', 'site-2']) {
      const service = compose.services[name]!;
      const gateway = loadGatewayConfig(siteEnvironment(service, { ...secrets, ...tuned, ROUTE_DATA_TIMEOUT_MS: '0' }));
      expect([gateway.ipv6Prefix, gateway.bodyTimeoutMs, gateway.routeDataTimeoutMs], name).toEqual([56, 60000, 0]);
      expect(loadGatewayConfig(siteEnvironment(service, secrets)).ipv6Prefix, name).toBe(64);
    }
  });

  it("starts site on its volume with a .env that holds only the scale profile's secrets", () => {
    // The variables "Many instances" has the operator set for `--profile scale`, in `.env`: MinIO's
    // root user and password are S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY, without S3_BUCKET (its default).
    const scaleSecrets = {
      POSTGRES_PASSWORD: 'change-me',
      S3_ACCESS_KEY_ID: 'moredoc',
      S3_SECRET_ACCESS_KEY: 'minio-root-password',
      JWT_SECRET: 'a-jwt-secret-of-32-characters-xx',
    };
    const env = siteEnvironment(compose.services.site!, scaleSecrets);
    // The embedded backend's configuration, which refuses S3 keys without a bucket, takes it.
    const config = loadBackendConfig(env);
    expect(config.s3).toBeUndefined();
    expect(env).toMatchObject({ S3_BUCKET: '', S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' });
    expect(config.jwtSecret).toBe(scaleSecrets.JWT_SECRET);
    // The scale instances still get the secret.
    expect(siteEnvironment(compose.services['site-1']!, scaleSecrets)).toMatchObject({
      S3_ACCESS_KEY_ID: 'moredoc',
      S3_SECRET_ACCESS_KEY: 'minio-root-password',
      S3_BUCKET: 'moredoc',
    });
  });

  it("keeps site on its volume when the scale profile's `.env` names its bucket, which the scale instances and MinIO take", () => {
    // The bucket of `--profile scale` is SCALE_S3_BUCKET: S3_BUCKET, were it in this `.env`, would send
    // the default site's files to that bucket (on AWS S3, since it has no S3_ENDPOINT).
    const scaleEnv = {
      POSTGRES_PASSWORD: 'change-me',
      S3_ACCESS_KEY_ID: 'moredoc',
      S3_SECRET_ACCESS_KEY: 'minio-root-password',
      SCALE_S3_BUCKET: 'moredoc-files',
    };
    expect(loadBackendConfig(siteEnvironment(compose.services.site!, scaleEnv)).s3).toBeUndefined();
    for (const name of ['site-1', 'site-2', 'worker', 'minio-setup']) {
      expect(siteEnvironment(compose.services[name]!, scaleEnv).S3_BUCKET, name).toBe('moredoc-files');
    }
    // A `.env` written before SCALE_S3_BUCKET keeps its scale instances on the bucket it named.
    const { SCALE_S3_BUCKET: _, ...older } = { ...scaleEnv, S3_BUCKET: 'kept-bucket' };
    expect(siteEnvironment(compose.services['site-1']!, older).S3_BUCKET).toBe('kept-bucket');
    expect(siteEnvironment(compose.services['minio-setup']!, older).S3_BUCKET).toBe('kept-bucket');
    expect(siteEnvironment(compose.services['site-1']!, {}).S3_BUCKET).toBe('moredoc');
  });

  it('is explained in docs/operations.md: the variables to set, the copy of a SQLite site, pg_dump', async () => {
    const readme = await readRepo('docs/operations.md');
    const section = readme.slice(readme.indexOf('### Running with PostgreSQL'));
    expect(section).toContain('COMPOSE_PROFILES=postgres');
    expect(section).toMatch(/DATABASE_URL=postgres:\/\/moredoc:[^@]+@postgres:5432\/moredoc/);
    expect(section).toContain('db-copy.mjs --to');
    expect(section).toContain('docker compose exec -T postgres pg_dump');
  });

  it("has docs/operations.md write a command's output to a file only without a terminal (`compose exec -T`), which would mangle a dump", async () => {
    const operations = await readRepo('docs/operations.md');
    const redirected = [...operations.matchAll(/docker compose exec [^`]*?>[^`]*`/g)].map((m) => m[0]);
    expect(redirected.length).toBeGreaterThanOrEqual(2);
    expect(redirected.filter((command) => !command.startsWith('docker compose exec -T '))).toEqual([]);
  });
});

describe('the compose profile `scale` and deploy/nginx-scale.conf', () => {
  let compose: ComposeFile;
  let nginxConf: string;
  const service = (name: string) => compose.services[name]!;

  beforeAll(async () => {
    compose = parseYaml(await readRepo('docker-compose.yml'), { merge: true }) as ComposeFile;
    nginxConf = await readRepo('deploy/nginx-scale.conf');
  });

  it('runs PostgreSQL, MinIO with its bucket made once, two web instances, two workers and nginx', () => {
    const scale = Object.entries(compose.services)
      .filter(([, s]) => s.profiles?.includes('scale'))
      .map(([name]) => name);
    expect(scale.sort()).toEqual(['lb', 'minio', 'minio-setup', 'postgres', 'site-1', 'site-2', 'worker']);
    expect(service('postgres').healthcheck?.test?.slice(0, 6)).toEqual([
      'CMD',
      'pg_isready',
      '-U',
      'moredoc',
      '-d',
      'moredoc',
    ]);
    expect(service('postgres').volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(service('minio').healthcheck?.test).toEqual(['CMD', 'mc', 'ready', 'local']);
    expect(service('minio').volumes).toEqual(['minio-data:/data']);
    expect(service('minio-setup').depends_on).toEqual({ minio: { condition: 'service_healthy' } });
    expect(service('minio-setup').entrypoint!.join(' ')).toMatch(
      /mc alias set local http:\/\/minio:9000 .* && mc mb --ignore-existing "local\/\$\$S3_BUCKET"/,
    );
    expect(Object.keys(compose.volumes ?? {})).toEqual(expect.arrayContaining(['postgres-data', 'minio-data']));
  });

  it('gives every instance the same database, bucket and secret; the web ones leave the jobs to the workers', () => {
    const instances = ['site-1', 'site-2', 'worker'];
    const shared = [
      'DATABASE_URL',
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
      'JWT_SECRET',
      // The first 网站域名 of whichever instance creates the settings first: a worker may be that one.
      'PUBLIC_ORIGIN',
      'ADMIN_PASSWORD',
    ];
    for (const name of instances) {
      const s = service(name);
      expect(s.image, name).toBe('moredoc-site:latest');
      expect(s.depends_on, name).toEqual({
        postgres: { condition: 'service_healthy' },
        'minio-setup': { condition: 'service_completed_successfully' },
      });
      for (const key of shared)
        expect(s.environment?.[key], `${name} ${key}`).toBe(service('site-1').environment?.[key]);
    }
    expect(service('site-1').environment?.DATABASE_URL).toBe(
      'postgres://moredoc:${POSTGRES_PASSWORD:-}@postgres:5432/moredoc',
    );
    expect(service('site-1').environment?.S3_ENDPOINT).toBe('http://minio:9000');
    for (const name of ['site-1', 'site-2']) {
      expect(service(name).environment?.RUN_JOBS, name).toBe('false');
      expect(service(name).expose, name).toEqual(['3000']);
      expect(service(name).command, name).toBeUndefined();
    }
    // The worker: the bundle's worker entry, twice, without the image's HTTP health check.
    expect(service('worker').command).toEqual(['node', 'dist/server/backend/worker.mjs']);
    expect(service('worker').environment?.RUN_JOBS).toBeUndefined();
    expect(service('worker').deploy?.replicas).toBe(2);
    expect(service('worker').healthcheck).toEqual({ disable: true });
  });

  it('puts nginx in front of the web instances by name, retrying a refused one on the other', () => {
    const lb = service('lb');
    expect(lb.volumes).toEqual(['./deploy/nginx-scale.conf:/etc/nginx/conf.d/default.conf:ro']);
    expect(lb.depends_on).toMatchObject({
      'site-1': { condition: 'service_healthy' },
      'site-2': { condition: 'service_healthy' },
    });
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(nginxConf);
    expect(upstream).not.toBeNull();
    const servers = [...upstream![2]!.matchAll(/^\s*server\s+([\w.-]+):(\d+)([^;]*);/gm)].map((m) => ({
      host: m[1],
      port: m[2],
      params: m[3]!.trim(),
    }));
    expect(servers.map((server) => server.host)).toEqual(['site-1', 'site-2']);
    for (const server of servers) {
      expect(service(server.host!).expose).toContain(server.port);
      expect(server.params).toMatch(/max_fails=\d+ fail_timeout=\d+s/);
    }
    expect(nginxConf).toMatch(new RegExp(`proxy_pass http://${upstream![1]};`));
    const nextUpstream = /^\s*proxy_next_upstream\s+([^;]+);/m.exec(nginxConf)![1]!.split(/\s+/);
    expect(nextUpstream).toEqual(expect.arrayContaining(['error', 'timeout']));
    // A write an instance may have acted on is never sent twice.
    expect(nextUpstream).not.toContain('non_idempotent');
    const listen = /^\s*listen\s+(\d+);/m.exec(nginxConf)![1];
    expect(lb.ports).toEqual([`\${SCALE_PORT:-${listen}}:${listen}`]);
  });

  it.skipIf(!existsSync('/usr/sbin/nginx'))('passes `nginx -t` (the instance names resolved to loopback)', async () => {
    expect(await nginxTest(nginxConf.replace(/\bsite-\d+:/g, '127.0.0.1:'))).toContain('test is successful');
  });
});

describe('the nginx server block of docs/operations.md ("TLS and the public origin")', () => {
  it.skipIf(!existsSync('/usr/sbin/nginx') || !existsSync('/usr/bin/openssl'))(
    'passes `nginx -t` as written, once its certificate paths name a certificate',
    async () => {
      const operations = await readRepo('docs/operations.md');
      const tls = operations.slice(operations.indexOf('### TLS and the public origin'));
      const block = /```nginx\n([\s\S]*?)```/.exec(tls)![1]!;
      const dir = await mkdtemp(join(tmpdir(), 'moredoc-tls-'));
      try {
        const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
        await run('/usr/bin/openssl', [
          ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=docs.example.com'],
          ...['-keyout', key, '-out', cert],
        ]);
        const paths = block
          .replace(/^(\s*ssl_certificate\s+)\S+;/m, `$1${cert};`)
          .replace(/^(\s*ssl_certificate_key\s+)\S+;/m, `$1${key};`);
        expect(paths).not.toBe(block);
        expect(await nginxTest(paths.replace(/listen 443 ssl;/, `listen ${await freePort()} ssl;`))).toContain(
          'test is successful',
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

/** `nginx -t` on a server configuration (upstream and server blocks) in an http block of its own; answers nginx's report. */
async function nginxTest(conf: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'moredoc-nginx-'));
  try {
    await mkdir(join(dir, 'logs'));
    const main = [
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'logs', 'error.log')};`,
      'events {}',
      'http {',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${name}_temp_path ${join(dir, name)};`),
      `  access_log ${join(dir, 'logs', 'access.log')};`,
      conf,
      '}',
    ].join('\n');
    await writeFile(join(dir, 'nginx.conf'), main);
    const { stderr } = await run('/usr/sbin/nginx', ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')]).catch(
      (error: { stderr?: string }) => ({ stderr: error.stderr ?? String(error) }),
    );
    return stderr;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Dockerfile', () => {
  it('installs the Office and ebook converters in the runtime image only when asked to', async () => {
    const runtime = parseDockerfile(await readRepo('Dockerfile')).stages.find((stage) => stage.name === 'runtime')!;
    const text = runtime.instructions.map((i) => `${i.keyword} ${i.args}`).join('\n');
    expect(text).toContain('ARG OFFICE_CONVERTERS=false');
    expect(text).toMatch(
      /if \[ "\$OFFICE_CONVERTERS" = "true" \]; then[\s\S]*libreoffice-writer-nogui[\s\S]*calibre fonts-noto-cjk/,
    );
  });

  it('has docs/operations.md tell how to build it with them, as compose passes the argument', async () => {
    const operations = await readRepo('docs/operations.md');
    const docker = operations.slice(
      operations.indexOf('### Docker'),
      operations.indexOf('### TLS and the public origin'),
    );
    expect(docker).toContain('OFFICE_CONVERTERS=true docker compose build');
    const compose = parseYaml(await readRepo('docker-compose.yml'), { merge: true }) as ComposeFile;
    expect((compose.services.site!.build as { args: Record<string, string> }).args.OFFICE_CONVERTERS).toBe(
      '${OFFICE_CONVERTERS:-false}',
    );
  });

  let dockerfile: Dockerfile;
  let runtime: Stage;

  beforeAll(async () => {
    dockerfile = parseDockerfile(await readRepo('Dockerfile'));
    runtime = dockerfile.stages[dockerfile.stages.length - 1]!;
  });

  const instructions = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);

  it('builds in stages and runs on Node 22 slim without the build toolchain', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(3);
    expect(runtime.image).toMatch(/^node:22[.-].*slim$/);
    const runtimeRuns = instructions(runtime, 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(runtimeRuns).not.toMatch(/g\+\+|python3|npm (ci|install)/);
    const npmCi = dockerfile.stages.flatMap((stage) => instructions(stage, 'RUN')).map((i) => i.args);
    expect(npmCi.some((args) => /npm ci\b(?!.*--omit=dev)/.test(args))).toBe(true);
    expect(npmCi.some((args) => /npm ci\b.*--omit=dev/.test(args))).toBe(true);
    expect(npmCi.some((args) => /npm run build\b/.test(args))).toBe(true);
  });

  it('takes the commit for the dashboard as BUILD_HASH before `npm run build` records it (.git stays out of the context)', async () => {
    const build = dockerfile.stages.find((stage) => stage.name === 'build')!;
    const order = build.instructions.map((i) => `${i.keyword} ${i.args}`);
    const arg = order.findIndex((line) => /^ARG BUILD_HASH\b/.test(line));
    expect(arg).toBeGreaterThanOrEqual(0);
    expect(order.findIndex((line) => /^RUN npm run build\b/.test(line))).toBeGreaterThan(arg);
    expect((await readRepo('.dockerignore')).split('\n')).toContain('.git');
    // the runtime stage carries dist/server, where build-info.json is
    expect(instructions(runtime, 'COPY').map((i) => i.args)).toContain('--from=build /app/dist/server ./dist/server');
  });

  it('runs as an unprivileged user with its data in the /data volume and a health check on /healthz', () => {
    const user = instructions(runtime, 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(
      instructions(runtime, 'VOLUME')
        .map((i) => i.args)
        .join(' '),
    ).toContain('/data');
    const env = Object.assign({}, ...instructions(runtime, 'ENV').map((i) => parseEnv(i.args))) as Record<
      string,
      string
    >;
    expect(env).toMatchObject({ DATA_DIR: '/data', PORT: '3000', HOST: '0.0.0.0', NODE_ENV: 'production' });
    expect(instructions(runtime, 'EXPOSE').map((i) => i.args)).toContain('3000');
    const healthcheck = instructions(runtime, 'HEALTHCHECK')[0]?.args ?? '';
    expect(execForm(healthcheck).join(' ')).toContain('/healthz');
  });

  it('gives a start that applies a long migration time before a failed health check counts', () => {
    // /healthz answers once the migrations are applied (docs/operations.md, "Upgrades": PostgreSQL's
    // migration 038 takes 1–2 minutes at 20,000 documents); compose's `lb` waits for a healthy instance.
    const healthcheck = instructions(runtime, 'HEALTHCHECK')[0]?.args ?? '';
    const startPeriod = /--start-period=(\d+)s/.exec(healthcheck)?.[1];
    expect(Number(startPeriod)).toBeGreaterThanOrEqual(300);
  });

  it("counts the site's days (a sign-in a day, downloads a day) by China's clock, as its pages show times", () => {
    const env = Object.assign({}, ...instructions(runtime, 'ENV').map((i) => parseEnv(i.args))) as Record<
      string,
      string
    >;
    expect(env.TZ).toBe('Asia/Shanghai');
    // Node's own time-zone data: a day at 20:00 UTC is the next day in the image, tzdata or not.
    const day = execFileSync(process.execPath, ['-e', 'console.log(new Date(Date.UTC(2026, 0, 1, 20)).getDate())'], {
      env: { ...process.env, TZ: env.TZ, TZDIR: '/nonexistent' },
      encoding: 'utf8',
    });
    expect(day.trim()).toBe('2');
  });

  it('runs with two malloc arenas, so that memory the conversion threads freed goes back', () => {
    const env = Object.assign({}, ...instructions(runtime, 'ENV').map((i) => parseEnv(i.args))) as Record<
      string,
      string
    >;
    expect(env.MALLOC_ARENA_MAX).toBe('2');
  });

  it('starts what `npm run start:prod` starts', async () => {
    const pkg = JSON.parse(await readRepo('package.json')) as { scripts: Record<string, string> };
    const [node, ...args] = execForm(instructions(runtime, 'CMD').at(-1)!.args);
    const bundle = args.pop()!;
    // npm's shell `exec`s node, so that npm's SIGTERM reaches it, with the same options, on
    // scripts/start-build.mjs, which runs the bundle once it has checked that the build is there
    // (tests/ops/npm-start.test.ts).
    expect(pkg.scripts['start:prod']).toBe(`exec ${[node, ...args, 'scripts/start-build.mjs', bundle].join(' ')}`);
  });

  it('copies from the build context only what .dockerignore lets in', async () => {
    const dockerignore = await readRepo('.dockerignore');
    for (const stage of dockerfile.stages) {
      for (const copy of instructions(stage, 'COPY').map((i) => parseCopy(i.args))) {
        if (copy.from !== undefined) continue;
        for (const source of copy.sources) {
          expect(existsSync(join(REPO, source)), source).toBe(true);
          if (source !== '.') expect(isIgnored(dockerignore, source), source).toBe(false);
        }
      }
    }
    // what the image builds itself never comes from the host
    for (const path of ['node_modules', 'dist', 'web/dist', 'data', '.git'])
      expect(isIgnored(dockerignore, path), path).toBe(true);
    // nor the operator's files beside docker-compose.yml (docs/operations.md): `.env` with the
    // passwords and keys, the override and MOREDOC's folder with its app.toml; a change to one
    // would also build the whole image again
    for (const path of ['.env', 'docker-compose.override.yml', 'moredoc'])
      expect(isIgnored(dockerignore, path), path).toBe(true);
  });
});

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * COPY of a file or folder to a path that does not exist yet, the same bytes at the same paths: hard links to the
 * stage's files (the stages and the image are all in the temporary folder; nothing here writes to them), a copy
 * where a link cannot be made. Writing a copy of the prod-deps stage's node_modules (12,000 files, 150 MB) took
 * fs.cp 19 s and 7.4 cpu-s, `cp -a` 2.2–46 s as the machine's disk was busy (load average 16–20), `cp -al`
 * 1.5–4 s and 0.4–0.7 cpu-s (2026-12-07).
 */
async function copyAsDockerDoes(source: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  try {
    await run('cp', ['-al', source, target]);
  } catch {
    await rm(target, { recursive: true, force: true });
    await run('cp', ['-a', source, target]);
  }
}

/** WORKDIR of a stage (the last one set in it or, inherited, in the stage it builds on). */
function workdirOf(dockerfile: Dockerfile, stage: Stage): string {
  const own = stage.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args;
  if (own !== undefined) return own;
  const parent = dockerfile.stages.find((candidate) => candidate.name === stage.image);
  if (parent) return workdirOf(dockerfile, parent);
  return '/';
}

describe('the production image, assembled and started here as the Dockerfile says', () => {
  // The build stage: the run's production build (the build context, all dependencies of this
  // work tree, `npm run build`); the prod-deps stage: `npm ci --omit=dev` of what it copies;
  // image/ (in a temporary folder): what the runtime stage copies.
  let temp: string;
  let dockerfile: Dockerfile;
  let runtime: Stage;
  let server: ChildProcess | undefined;
  let output = '';
  const stages: Record<string, string> = {};
  const stageDir = (name: string | undefined) => stages[name ?? ''] ?? join(temp, name ?? 'context');
  const runtimeCopies = () => runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => parseCopy(i.args));

  beforeAll(async () => {
    dockerfile = parseDockerfile(await readRepo('Dockerfile'));
    runtime = dockerfile.stages[dockerfile.stages.length - 1]!;
    temp = await mkdtemp(join(tmpdir(), 'moredoc-ops-'));
    stages.build = await productionBuild();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await exited(server);
    }
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  it('has after `npm run build` every file the runtime stage copies from the build stage', () => {
    const fromBuild = runtimeCopies().filter((c) => c.from === 'build');
    expect(fromBuild.length).toBeGreaterThan(0);
    const workdir = workdirOf(
      dockerfile,
      dockerfile.stages.find((stage) => stage.name === 'build')!,
    );
    for (const { sources } of fromBuild) {
      for (const source of sources)
        expect(existsSync(join(stageDir('build'), posix.relative(workdir, source))), source).toBe(true);
    }
    expect(existsSync(join(stageDir('build'), 'web/dist/index.html'))).toBe(true);
    expect(existsSync(join(stageDir('build'), 'web/dist/.vite/manifest.json'))).toBe(true);
  });

  it(
    'starts the built gateway with production dependencies only, healthy, serving the site, whose named command resets the admin password, and stops on SIGTERM',
    async () => {
      // The prod-deps stage: its files from the build context, then a real `npm ci --omit=dev` (the
      // native addons it would compile taken from this work tree: productionDependencies).
      const prodDepsStage = dockerfile.stages.find((stage) => stage.name === 'prod-deps')!;
      const install = prodDepsStage.instructions
        .filter((i) => i.keyword === 'RUN')
        .map((i) => i.args)
        .find((args) => args.includes('npm ci'))!;
      expect(install).toMatch(/^npm ci --omit=dev\b/);
      const sources = prodDepsStage.instructions
        .filter((i) => i.keyword === 'COPY')
        .flatMap((i) => parseCopy(i.args).sources);
      stages['prod-deps'] = await productionDependencies(sources);

      // The runtime stage: exactly what it copies, where it copies it.
      const image = stageDir('image');
      const runtimeWorkdir = workdirOf(dockerfile, runtime);
      for (const copy of runtimeCopies()) {
        const fromStage = dockerfile.stages.find((stage) => stage.name === copy.from);
        expect(fromStage, `COPY --from=${copy.from}`).toBeDefined();
        const fromWorkdir = workdirOf(dockerfile, fromStage!);
        for (const source of copy.sources) {
          // into a folder when the destination says so (trailing slash, several sources)
          const intoFolder = copy.destination.endsWith('/') || copy.sources.length > 1;
          const destination = intoFolder ? posix.join(copy.destination, posix.basename(source)) : copy.destination;
          const target = posix.relative(runtimeWorkdir, posix.resolve(runtimeWorkdir, destination));
          await copyAsDockerDoes(join(stageDir(copy.from), posix.relative(fromWorkdir, source)), join(image, target));
        }
      }
      expect(existsSync(join(image, 'node_modules/fastify'))).toBe(true);
      expect(existsSync(join(image, 'node_modules/better-sqlite3'))).toBe(true);
      for (const devOnly of ['vite', 'vitest', 'typescript', 'react', 'playwright-core', '@vitejs/plugin-react']) {
        expect(existsSync(join(image, 'node_modules', devOnly)), devOnly).toBe(false);
      }
      expect(existsSync(join(image, 'gateway')), 'no source in the image').toBe(false);

      // Its environment and command, on a loopback port with a temporary /data.
      const imageEnv = Object.assign(
        {},
        ...runtime.instructions.filter((i) => i.keyword === 'ENV').map((i) => parseEnv(i.args)),
      ) as Record<string, string>;
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ...imageEnv,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: join(temp, 'data'),
        // What compose gives the container when `.env` sets none: the first start generates it.
        ADMIN_PASSWORD: '',
        CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
        LOG_LEVEL: 'warn',
      };
      const [command, ...args] = execForm(runtime.instructions.filter((i) => i.keyword === 'CMD').at(-1)!.args);
      expect(command).toBe('node');
      server = spawn(process.execPath, args, { cwd: image, env, stdio: ['ignore', 'pipe', 'pipe'] });
      server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

      // Ready when /readyz says the embedded backend answers.
      let ready = false;
      for (let attempt = 0; attempt < 600 && !ready && server.exitCode === null; attempt++) {
        try {
          ready = (await fetch(`${url}/readyz`)).status === 200;
        } catch {
          // not listening yet
        }
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready, `the gateway did not become ready:\n${output}`).toBe(true);

      // The image's HEALTHCHECK, as Docker would run it inside the container.
      const [, ...checkArgs] = execForm(runtime.instructions.find((i) => i.keyword === 'HEALTHCHECK')!.args);
      expect(await exited(spawn(process.execPath, checkArgs, { env, stdio: 'ignore' }))).toBe(0);

      const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<script type="application/json" id="start-data">');
      expect(html).toContain('<div id="root">');
      const entry = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(entry).toBeDefined();
      const asset = await fetch(`${url}${entry}`, { headers: { 'accept-encoding': 'br' } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe('br');

      const signIn = (password: string) =>
        fetch(`${url}/api/v1/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url, 'sec-fetch-site': 'same-origin' },
          body: JSON.stringify({ username: 'admin', password }),
        });
      // The start's frame: the generated password, and the command that gives a new one in the image.
      await expect.poll(() => output.includes('  └')).toBe(true);
      const firstPassword = /admin account created: username "admin", password "(\S+)"/.exec(output)?.[1];
      expect(firstPassword, output).toBeDefined();
      const login = await signIn(firstPassword!);
      expect(login.status).toBe(200);
      expect(login.headers.get('set-cookie')).toMatch(/^token=/);

      // Lost it: the command the frame names, as `docker compose exec site …` runs it in the running
      // container (its working directory and environment), on what the image holds.
      const lostPassword = / in the Docker image: docker compose exec site (node \S+)\)/.exec(output)?.[1];
      expect(lostPassword, output).toBeDefined();
      expect(await readRepo('docs/operations.md')).toContain(`docker compose exec site ${lostPassword}`);
      const [, ...commandArgs] = lostPassword!.split(' ');
      const reset = await run(process.execPath, commandArgs, { cwd: image, env });
      const newPassword = /New password of "admin" \(.+\): (\S+)\n/.exec(reset.stdout)?.[1];
      expect(newPassword, `${reset.stdout}${reset.stderr}`).toBeDefined();
      expect((await signIn(firstPassword!)).status).toBe(400);
      expect((await signIn(newPassword!)).status).toBe(200);

      server.kill('SIGTERM');
      expect(await exited(server), output).toBe(0);
      // and the health check now fails
      expect(await exited(spawn(process.execPath, checkArgs, { env, stdio: 'ignore' }))).not.toBe(0);
    },
    SETUP_TIMEOUT_MS,
  );
});
