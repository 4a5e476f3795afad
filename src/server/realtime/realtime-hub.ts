import type { Db, Queryable } from '../db/db.js';

/**
 * Event names on GET /api/events:
 * - pricing: tool prices, plans or the referral switch changed (broadcast)
 * - balance: the user's ENERGY balance changed (that user only), data {energy_balance}
 * - anything else a feature publishes (e.g. job progress), to one user or all
 */
export type RealtimeEventType = 'pricing' | 'balance' | (string & {});

/** Sent to a suspended account's open streams, which are then closed (decision 028). */
export const ACCOUNT_SUSPENDED_EVENT = 'account_suspended';

/** The NOTIFY payload: user_id null/absent means every signed-in listener. */
export interface RealtimeEvent {
  type: RealtimeEventType;
  user_id?: string | null;
  data?: unknown;
}

/** One open stream (an SSE response), as the hub sees it. */
export interface RealtimeSink {
  send(event: RealtimeEvent): void;
  /** A keep-alive that carries no event. */
  heartbeat(): void;
  /** End the stream (app shutdown); the sink's owner unsubscribes. */
  close(): void;
}

export interface RealtimeHubOptions {
  /** Keep-alive comment interval (proxies drop silent connections). */
  heartbeatMs?: number;
  log?: { warn: (obj: unknown, msg?: string) => void };
}

const CHANNEL_PREFIX = 'pixelrush_events';
/** Postgres refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;
export const DEFAULT_HEARTBEAT_MS = 15_000;

/**
 * Fan-out of app events to open streams, through Postgres LISTEN/NOTIFY on
 * one channel so that an event published by any process (API or worker)
 * reaches the streams held by every process. The channel is scoped to the
 * current schema: apps sharing a database share events only when they share
 * the data.
 */
export class RealtimeHub {
  private readonly subscribers = new Map<RealtimeSink, string>();
  private readonly listeners = new Set<(event: RealtimeEvent) => void>();
  private channelName?: Promise<string>;
  private listening?: Promise<() => Promise<void>>;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly heartbeatMs: number;

  constructor(
    private readonly db: Db,
    private readonly opts: RealtimeHubOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  }

  /**
   * Publishes an event to every process. userId null means all signed-in
   * listeners. Pass a transaction to send it only if (and when) that commits.
   */
  async publish(type: RealtimeEventType, userId?: string | null, data?: unknown, q?: Queryable): Promise<void> {
    if (this.closed) return;
    const payload = JSON.stringify({ type, user_id: userId ?? null, data: data ?? null } satisfies RealtimeEvent);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`realtime event '${type}' is too large`);
    const channel = await this.channel(q);
    if (q) await q.query('SELECT pg_notify($1, $2)', [channel, payload]);
    else await this.db.notify(channel, payload);
  }

  /** `balance` to that user with the balance as committed (one statement: read + notify). */
  async publishBalance(userId: string): Promise<void> {
    if (this.closed) return;
    const channel = await this.channel();
    await this.db.query(
      `SELECT pg_notify($1, json_build_object(
         'type', 'balance', 'user_id', $2::text,
         'data', json_build_object('energy_balance', (SELECT energy_balance FROM user_profiles WHERE id = $2::uuid))
       )::text)`,
      [channel, userId],
    );
  }

  /** Starts listening (once per hub). Call before opening a stream so a failure is an ordinary error. */
  async ready(): Promise<void> {
    if (this.closed) throw new Error('realtime hub is closed');
    if (!this.listening) {
      this.listening = this.channel().then((channel) => this.db.listen(channel, (payload) => this.dispatch(payload)));
      this.listening.catch(() => {
        this.listening = undefined;
      });
    }
    await this.listening;
  }

  /** Adds a stream for userId; returns the unsubscribe function. Call ready() first. */
  subscribe(userId: string, sink: RealtimeSink): () => void {
    if (this.closed) throw new Error('realtime hub is closed');
    this.subscribers.set(sink, userId);
    if (!this.timer) {
      this.timer = setInterval(() => this.beat(), this.heartbeatMs);
      this.timer.unref();
    }
    return () => {
      this.subscribers.delete(sink);
    };
  }

  /**
   * A listener inside the server for every event of every user (e.g. a
   * request waiting for its job to end in another process). Call ready() first.
   */
  listen(listener: (event: RealtimeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Open streams of one user (a cap per user keeps one account from holding many sockets). */
  streamsOf(userId: string): number {
    let n = 0;
    for (const id of this.subscribers.values()) if (id === userId) n += 1;
    return n;
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Ends every open stream and stops listening (app shutdown). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const sinks = [...this.subscribers.keys()];
    this.subscribers.clear();
    this.listeners.clear();
    for (const sink of sinks) {
      try {
        sink.close();
      } catch {
        /* already gone */
      }
    }
    const listening = this.listening;
    this.listening = undefined;
    if (listening) {
      const unlisten = await listening.catch(() => undefined);
      await unlisten?.().catch(() => {});
    }
  }

  private dispatch(payload: string): void {
    let event: RealtimeEvent;
    try {
      event = JSON.parse(payload) as RealtimeEvent;
      if (!event || typeof event.type !== 'string') return;
    } catch {
      this.opts.log?.warn({ payload: payload.slice(0, 200) }, 'ignored malformed realtime payload');
      return;
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.opts.log?.warn({ err }, 'realtime listener failed');
      }
    }
    for (const [sink, userId] of [...this.subscribers]) {
      if (event.user_id && event.user_id !== userId) continue;
      try {
        sink.send(event);
      } catch (err) {
        this.opts.log?.warn({ err }, 'realtime send failed');
      }
      // A suspended account keeps no live stream: it was told why, and a reconnect is refused (401).
      if (event.type === ACCOUNT_SUSPENDED_EVENT && event.user_id === userId) {
        this.subscribers.delete(sink);
        try {
          sink.close();
        } catch {
          /* already gone */
        }
      }
    }
  }

  private beat(): void {
    for (const sink of [...this.subscribers.keys()]) {
      try {
        sink.heartbeat();
      } catch {
        /* the stream's close handler unsubscribes it */
      }
    }
  }

  private channel(q?: Queryable): Promise<string> {
    if (!this.channelName) {
      this.channelName = (q ?? this.db)
        .query<{ schema: string | null }>('SELECT current_schema() AS schema')
        .then(([row]) => channelFor(row?.schema ?? 'public'));
      this.channelName.catch(() => {
        this.channelName = undefined;
      });
    }
    return this.channelName;
  }
}

/** An unquoted-safe identifier (PGlite sends LISTEN unquoted): lower case, digits, underscores. */
export function channelFor(schema: string): string {
  if (schema === 'public') return CHANNEL_PREFIX;
  const safe = schema.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `${CHANNEL_PREFIX}_${safe}`.slice(0, 63);
}
