// nginx, the reference: Debian's package, started on loopback with a generated config in a
// temporary folder (bench/lib/tools.ts finds it, or says how to install it).
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, stopChild } from './processes';

export interface NginxBinary {
  path: string;
  version: string;
}

/** The nginx binary and its version, or a sentence saying what is wrong with it. */
export function inspectNginx(path: string): NginxBinary | string {
  const info = spawnSync(path, ['-V'], { encoding: 'utf8' });
  const text = `${info.stdout}${info.stderr}`;
  if (!text.includes('--with-http_gzip_static_module'))
    return `${path} lacks the gzip_static module; Debian's nginx has it`;
  return { path, version: /nginx version: (\S+)/.exec(text)?.[1] ?? 'unknown' };
}

export interface NginxOptions {
  /** the upstream proxied for /api/ and /view/ */
  upstreamUrl: string;
  /** the built SPA: index.html and assets/ with .gz beside each file */
  webDist: string;
  /** a temporary folder of the benchmark */
  dir: string;
  /** served as static files under /files/ (sendfile), when given */
  filesRoot?: string;
}

export interface RunningNginx {
  url: string;
  /** the master process (its worker is its child) */
  pid: number;
  stop(): Promise<void>;
}

/** One worker process, like the gateway's one Node process; no access log, like the gateway at LOG_LEVEL=warn. */
export function nginxConfig(port: number, upstream: URL, webDist: string, dir: string, filesRoot?: string): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  types {
    text/html html;
    text/css css;
    application/javascript js mjs;
    application/json json;
    image/png png;
    image/svg+xml svg;
  }
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  upstream backend {
    server ${upstream.host};
    keepalive 128;
    keepalive_requests 1000000;
  }

  server {
    listen 127.0.0.1:${port};
    server_name localhost;

    location = /nginx-ready { return 204; }

    # The same upstream calls the gateway proxies, with keep-alive to the upstream and
    # buffers large enough for a 100 KB page image (no temporary files).
    location ~ ^/(api|view)/ {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_buffer_size 16k;
      proxy_buffers 16 16k;
    }

${
  filesRoot === undefined
    ? ''
    : `    # Files as they lie on disk, the floor of serving them.
    location /files/ {
      alias ${filesRoot}/;
    }

`
}    location /assets/ {
      root ${webDist};
      gzip_static on;
      add_header Cache-Control "public, max-age=31536000, immutable";
    }

    # The SPA as static files: every page is the built index.html.
    location / {
      root ${webDist};
      try_files /index.html =404;
      add_header Cache-Control "no-cache";
    }
  }
}
`;
}

export async function startNginx(binary: NginxBinary, opts: NginxOptions): Promise<RunningNginx> {
  const port = await freePort();
  const dir = join(opts.dir, `nginx-${port}`);
  await mkdir(dir, { recursive: true });
  // Run as root, nginx's workers drop to `nobody`: they must be able to use the temp folders.
  await chmod(opts.dir, 0o755);
  await chmod(dir, 0o755);
  const configFile = join(dir, 'nginx.conf');
  await writeFile(configFile, nginxConfig(port, new URL(opts.upstreamUrl), opts.webDist, dir, opts.filesRoot));

  const test = spawnSync(binary.path, ['-t', '-q', '-p', dir, '-c', configFile], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx rejected the generated config ${configFile}:\n${test.stderr}`);

  const child = spawn(binary.path, ['-p', dir, '-c', configFile], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/nginx-ready`);
      if (res.status === 204) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}; see ${dir}/error.log`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`nginx did not answer on ${url} within 10 s; see ${dir}/error.log`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.on('exit', () => child.kill('SIGKILL'));
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}
