// HTTP load with autocannon: a warm-up run that is thrown away, then the measured run.
import autocannon, { type RequestSpec, type Result } from 'autocannon';

export interface LoadSettings {
  /** seconds of the measured run */
  duration: number;
  /** seconds of the warm-up run before it */
  warmup: number;
  connections: number;
}

export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
  /** a sequence each connection cycles through (mixed load); `url` then gives the origin */
  requests?: RequestSpec[];
  /** requests per second over all connections; unset: as fast as the server answers */
  overallRate?: number;
}

export interface Measurement {
  rps: number;
  /** milliseconds */
  p50: number;
  p97_5: number;
  p99: number;
  /** bytes per second of response data */
  throughput: number;
  requests: number;
  /** connection errors, timeouts and non-2xx answers: any of them spoils the figure */
  failures: number;
}

function run(target: LoadTarget, connections: number, duration: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        connections,
        duration,
        pipelining: 1,
        timeout: 30,
        ...(target.headers ? { headers: target.headers } : {}),
        ...(target.requests ? { requests: target.requests } : {}),
        ...(target.overallRate ? { overallRate: target.overallRate } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

export async function measure(target: LoadTarget, settings: LoadSettings): Promise<Measurement> {
  if (settings.warmup > 0) await run(target, Math.min(settings.connections, 10), settings.warmup);
  const result = await run(target, settings.connections, settings.duration);
  const requests = result['2xx'] + result.non2xx;
  return {
    rps: requests / result.duration,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    throughput: result.throughput.average,
    requests,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}
