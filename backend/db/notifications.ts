import { sql, type Kysely } from 'kysely';
import type { Client } from 'pg';
import { engineOf } from './dialect';

// Wake-ups between processes that share a PostgreSQL database: `notify` sends a NOTIFY in the
// caller's transaction (PostgreSQL delivers it at commit, and not at all on a rollback), and
// one dedicated connection per process LISTENs for every subscriber. A notification is a
// hint, never the data: subscribers read the tables, and each one keeps a fallback (a poll, a
// version check) for the notifications lost while the connection was down.

/** Every channel this program uses, so that two features never share one by accident. */
export const CHANNELS = {
  jobs: 'moredoc_jobs',
  settings: 'moredoc_settings',
  sessions: 'moredoc_sessions',
} as const;
export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

export interface Subscriber {
  /** A NOTIFY on the channel, from any process (this one included), with its payload. */
  onNotify(payload: string): void;
  /** The connection came back after a failure: notifications may have been missed meanwhile. */
  onReconnect?(): void;
}

export interface Notifications {
  /** Resolves once the channel is listened to (or at once when the connection is down: it retries). */
  subscribe(channel: Channel, subscriber: Subscriber): Promise<() => void>;
  close(): Promise<void>;
}

/** NOTIFY `channel` with `payload` within `executor`'s transaction; nothing on SQLite. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Kysely<DB> or transaction
export async function notify(executor: Kysely<any>, channel: Channel, payload: string): Promise<void> {
  if (engineOf(executor) !== 'postgres') return;
  await sql`SELECT pg_notify(${channel}, ${payload})`.execute(executor);
}

interface ListenerLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

export interface PostgresNotificationsOptions {
  url: string;
  log?: ListenerLogger;
  /** First wait before reconnecting after a failure (default 100 ms), doubled up to `maxRetryMs`. */
  retryMs?: number;
  /** Longest wait between reconnection attempts (default 5 s). */
  maxRetryMs?: number;
}

/** What the listening connection calls itself in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'moredoc-site listener';
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The LISTEN side on a `pg.Client` of its own (a pooled connection would be handed to queries
 * and lose its LISTENs). A failed or closed connection is replaced after a short wait, its
 * channels listened to again, and every subscriber told so that it catches up.
 */
export class PostgresNotifications implements Notifications {
  private readonly subscribers = new Map<Channel, Set<Subscriber>>();
  private client: Client | null = null;
  /** The channels the current connection listens to. */
  private listening = new Set<Channel>();
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private closed = false;
  /** A connection failed since the last one was made: the next one tells the subscribers. */
  private missedSome = false;
  /** Since when the connection has been failing (said once at its first failure), or undefined. */
  private failingSince: number | undefined;

  constructor(private readonly options: PostgresNotificationsOptions) {
    this.retryMs = options.retryMs ?? 100;
  }

  async subscribe(channel: Channel, subscriber: Subscriber): Promise<() => void> {
    if (this.closed) throw new Error('notifications are closed');
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(subscriber);
    await this.connect();
    await this.listenAll();
    return () => {
      set.delete(subscriber);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** Connects when there is no connection; on failure, schedules another try. Never rejects. */
  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** LISTENs on the current connection to the channels it does not listen to yet. */
  private async listenAll(): Promise<void> {
    const client = this.client;
    if (!client) return;
    for (const channel of this.subscribers.keys()) {
      if (this.listening.has(channel)) continue;
      this.listening.add(channel);
      // A failure here ends the connection ('error'), and the next one listens again.
      await client.query(`LISTEN ${channel}`).catch(() => undefined);
    }
  }

  private async open(): Promise<void> {
    // pg loads with the first connection, not with the backend (a SQLite site never makes one).
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    let failed = false;
    const fail = (error: Error | undefined) => {
      if (failed) return;
      failed = true;
      this.missedSome = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      // Said once: while the server is away every attempt fails alike, one every few seconds.
      if (this.failingSince === undefined) {
        this.failingSince = Date.now();
        this.options.log?.warn({ err: error }, 'the PostgreSQL notification connection failed; reconnecting');
      }
      this.scheduleRetry();
    };
    client.on('error', fail);
    client.on('end', () => fail(undefined));
    client.on('notification', (message) => {
      for (const subscriber of this.subscribers.get(message.channel as Channel) ?? [])
        subscriber.onNotify(message.payload ?? '');
    });
    try {
      await client.connect();
    } catch (error) {
      fail(error as Error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.listening = new Set();
    await this.listenAll();
    if (this.client !== client) return;
    this.retryMs = this.options.retryMs ?? 100;
    if (this.failingSince !== undefined) {
      this.options.log?.info?.(
        { awayMs: Date.now() - this.failingSince },
        'the PostgreSQL notification connection is back',
      );
      this.failingSince = undefined;
    }
    if (this.missedSome) {
      this.missedSome = false;
      for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.onReconnect?.();
    }
  }

  private scheduleRetry(): void {
    clearTimeout(this.retryTimer);
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 5000);
    this.retryTimer = setTimeout(() => void this.connect(), wait);
  }
}
