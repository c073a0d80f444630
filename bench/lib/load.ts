// HTTP load. Throughput runs use wrk (C, one thread): autocannon parses responses in
// JavaScript and tops out near 25 MB/s here, so for 100 KB bodies it measured itself, not the
// server. The fixed-rate latency runs use autocannon, which can pace requests (wrk cannot);
// at those rates it is far from its limit. Every measured run follows a warm-up run.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon, { type Result } from 'autocannon';

const run = promisify(execFile);

export interface LoadSettings {
  /** seconds of the measured run */
  duration: number;
  /** seconds of the warm-up run before it */
  warmup: number;
  connections: number;
}

export interface RequestSpec {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}

export interface LoadTarget {
  /** the origin, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** one request, or a sequence each connection cycles through (mixed load) */
  requests: RequestSpec[];
}

export interface Measurement {
  rps: number;
  /** milliseconds */
  p50: number;
  p97_5: number;
  p99: number;
  /** milliseconds: the slowest answer */
  max: number;
  requests: number;
  /** connection errors, timeouts and 4xx/5xx answers: any of them spoils the figure */
  failures: number;
}

const luaString = (value: string) => JSON.stringify(value);

/** A wrk script for the requests (cycled when several) that prints the summary as one JSON line. */
export function wrkScript(requests: RequestSpec[]): string {
  const table = (headers: Record<string, string> = {}) =>
    `{ ${Object.entries(headers)
      .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
      .join(', ')} }`;
  // One request: let wrk build it once. Several: a request() function, called per request.
  const [single] = requests;
  // A Lua function holds at most 65,536 constants: the requests are added by functions of 5,000 each.
  const chunks = Array.from({ length: Math.ceil(requests.length / 5_000) }, (_, i) =>
    requests.slice(i * 5_000, (i + 1) * 5_000),
  );
  const requestPart =
    requests.length === 1
      ? `wrk.method = ${luaString(single!.method ?? 'GET')}
wrk.path = ${luaString(single!.path)}
wrk.headers = ${table(single!.headers)}
`
      : `local requests = {}
local counter = 0
local adders = {}
${chunks
  .map(
    (chunk) => `table.insert(adders, function()
${chunk.map((r) => `  table.insert(requests, wrk.format(${luaString(r.method ?? 'GET')}, ${luaString(r.path)}, ${table(r.headers)}))`).join('\n')}
end)`,
  )
  .join('\n')}
-- built in init(): only then does wrk.headers hold the Host header that wrk.format adds
init = function(_)
  for _, add in ipairs(adders) do add() end
end
request = function()
  counter = counter % #requests + 1
  return requests[counter]
end
`;
  return `${requestPart}
done = function(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"failures":%d,"p50":%d,"p97_5":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(97.5), latency:percentile(99), latency.max))
end
`;
}

export class WrkRunner {
  private scripts = 0;

  constructor(
    private readonly wrkPath: string,
    private readonly scratchDir: string,
  ) {}

  async run(target: LoadTarget, connections: number, seconds: number): Promise<Measurement> {
    const script = join(this.scratchDir, `load-${++this.scripts}.lua`);
    await writeFile(script, wrkScript(target.requests));
    const { stdout } = await run(
      this.wrkPath,
      [
        '-t1',
        `-c${connections}`,
        `-d${seconds}s`,
        '--timeout',
        '30s',
        '-s',
        script,
        `${target.origin}${target.requests[0]!.path}`,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
    const summary = JSON.parse(line) as {
      requests: number;
      durationUs: number;
      failures: number;
      p50: number;
      p97_5: number;
      p99: number;
      max: number;
    };
    return {
      rps: summary.requests / (summary.durationUs / 1e6),
      p50: summary.p50 / 1000,
      p97_5: summary.p97_5 / 1000,
      p99: summary.p99 / 1000,
      max: summary.max / 1000,
      requests: summary.requests,
      failures: summary.failures,
    };
  }

  async measure(target: LoadTarget, settings: LoadSettings): Promise<Measurement> {
    if (settings.warmup > 0) await this.run(target, Math.min(settings.connections, 10), settings.warmup);
    return this.run(target, settings.connections, settings.duration);
  }
}

/** The value at `share` (0–1) of sorted values. */
function percentile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/**
 * Response times with coordinated omission corrected, as HDR histograms do it: a connection
 * paced at one request per `intervalMs` that waited `t` for an answer would have sent requests
 * at `t − interval`, `t − 2·interval`, … meanwhile, each of which would have waited that long.
 */
function correctedTimes(times: number[], intervalMs: number): Float64Array {
  const all: number[] = [];
  for (const t of times) {
    all.push(t);
    for (let missed = t - intervalMs; missed >= intervalMs; missed -= intervalMs) all.push(missed);
  }
  return Float64Array.from(all).sort();
}

/**
 * Latency at a fixed request rate over all connections. autocannon paces the requests; the
 * percentiles come from every answer's own time (autocannon's histograms keep whole
 * milliseconds, too coarse when answers take a fraction of one), coordinated omission corrected.
 */
export function runAtRate(
  target: LoadTarget,
  connections: number,
  seconds: number,
  overallRate: number,
): Promise<Measurement> {
  const [first] = target.requests;
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${target.origin}${first!.path}`,
        connections,
        duration: seconds,
        pipelining: 1,
        timeout: 30,
        overallRate,
        requests: target.requests.map((r) => ({
          method: r.method ?? 'GET',
          path: r.path,
          ...(r.headers ? { headers: r.headers } : {}),
        })),
      },
      (error, result: Result) => {
        if (error) return reject(error);
        const sorted = correctedTimes(times, (connections / overallRate) * 1000);
        const requests = result['2xx'] + result.non2xx;
        resolve({
          rps: requests / result.duration,
          p50: percentile(sorted, 0.5),
          p97_5: percentile(sorted, 0.975),
          p99: percentile(sorted, 0.99),
          max: sorted.length ? sorted[sorted.length - 1]! : 0,
          requests,
          failures: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTimeMs);
    });
  });
}
