// A request body that stops arriving must not hold a connection (and a connection to the
// backend) forever: the proxied body travels through a WatchedBody, which fails with a
// BodyTimeoutError once it stalls (BODY_TIMEOUT_MS), and the client gets a 408.
import { PassThrough, type TransformCallback } from 'node:stream';

export class BodyTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`request body not received within ${timeoutMs} ms`);
    this.name = 'BodyTimeoutError';
  }
}

/** The error, or one of its causes (reply-from wraps what undici reports), is a BodyTimeoutError. */
export function isBodyTimeout(error: unknown): boolean {
  for (let inner = error; inner instanceof Error; inner = inner.cause)
    if (inner instanceof BodyTimeoutError) return true;
  return false;
}

/**
 * A pass-through for a request body that destroys itself with a BodyTimeoutError when the
 * body stalls: when all of it has not come within `timeoutMs`, or, `idle` (uploads, which may
 * take long on a slow line), when `timeoutMs` pass between two chunks.
 */
export class WatchedBody extends PassThrough {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly idle: boolean,
  ) {
    super();
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.destroy(new BodyTimeoutError(this.timeoutMs)), this.timeoutMs);
    this.timer.unref();
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.idle) this.arm();
    super._transform(chunk, encoding, callback);
  }

  override _flush(callback: TransformCallback): void {
    clearTimeout(this.timer);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    super._destroy(error, callback);
  }
}
