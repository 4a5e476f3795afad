import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/db.js';
import type { RealtimeHub } from '../realtime/realtime-hub.js';

/**
 * Prometheus metrics. What lives in the database (queue depth, the ledger's
 * totals, stored bytes) is read from it at scrape time, so every node of a
 * cluster reports the same truth; what happens in one process (HTTP latency,
 * job durations, open event streams) is counted where it happens, and each
 * process is scraped on its own.
 */
const PREFIX = 'pixelrush_';

/** Process-wide: a tool run's duration by tool and how it ended. */
const jobDuration = new Histogram({
  name: `${PREFIX}tool_job_duration_seconds`,
  help: 'Time a tool run attempt took in this process, by tool and outcome (succeeded, failed, canceled, timed_out, handed_back, retry)',
  labelNames: ['tool', 'outcome'] as const,
  buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200],
  registers: [],
});

const httpDuration = new Histogram({
  name: `${PREFIX}http_request_duration_seconds`,
  help: 'HTTP request latency by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [],
});

export type JobOutcome = 'succeeded' | 'failed' | 'canceled' | 'timed_out' | 'handed_back' | 'retry';

export function observeToolRun(tool: string, outcome: JobOutcome, seconds: number): void {
  jobDuration.observe({ tool, outcome }, seconds);
}

export function observeHttp(method: string, route: string, statusCode: number, seconds: number): void {
  httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
}

export interface MetricsSources {
  db: Db;
  /** The process's open event streams (an API process); absent in a worker. */
  realtime?: RealtimeHub;
}

/** One registry per process: defaults, the process-wide series, and the database-backed ones. */
export function createMetricsRegistry(sources: MetricsSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  registry.registerMetric(httpDuration);
  registry.registerMetric(jobDuration);
  const { db } = sources;

  new Gauge({
    name: `${PREFIX}tool_jobs`,
    help: 'Tool runs waiting (queued: the queue depth) or in progress (running), by tool; from the database',
    labelNames: ['tool', 'status'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.query<{ tool: string; status: string; n: number }>(
        `SELECT tool, status, count(*)::int AS n FROM tool_jobs WHERE status IN ('queued', 'running') GROUP BY tool, status`,
      );
      this.reset();
      for (const r of rows) this.set({ tool: r.tool, status: r.status }, r.n);
    },
  });

  // Ledger totals only grow (it is append-only), so they are counters.
  const ledger = async () =>
    db.query<{ type: string; n: number; energy: number }>(
      'SELECT type, count(*)::int AS n, COALESCE(sum(abs(amount)), 0)::bigint AS energy FROM energy_transactions GROUP BY type',
    );
  const ledgerCounter = (name: string, help: string, pick: (rows: Awaited<ReturnType<typeof ledger>>) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      async collect() {
        const value = pick(await ledger());
        this.reset();
        this.inc(value);
      },
    });
  const sum = (type: string, field: 'n' | 'energy') => (rows: Awaited<ReturnType<typeof ledger>>) =>
    Number(rows.find((r) => r.type === type)?.[field] ?? 0);
  ledgerCounter(`${PREFIX}energy_spent_total`, 'ENERGY charged for tool runs (before refunds); from the ledger', sum('spend', 'energy'));
  ledgerCounter(`${PREFIX}energy_purchased_total`, 'ENERGY bought through checkout; from the ledger', sum('purchase', 'energy'));
  ledgerCounter(`${PREFIX}energy_refunded_total`, 'ENERGY refunded for failed or cancelled runs; from the ledger', sum('refund', 'energy'));
  ledgerCounter(`${PREFIX}refunds_total`, 'Refunds of failed or cancelled runs; from the ledger', sum('refund', 'n'));

  new Gauge({
    name: `${PREFIX}storage_bytes`,
    help: 'Bytes of library files, by kind; from the database',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.query<{ kind: string; bytes: string }>(
        'SELECT kind, COALESCE(sum(file_size), 0)::bigint AS bytes FROM uploaded_images GROUP BY kind',
      );
      this.reset();
      for (const kind of ['image', 'video']) this.set({ kind }, Number(rows.find((r) => r.kind === kind)?.bytes ?? 0));
    },
  });

  if (sources.realtime) {
    const hub = sources.realtime;
    new Gauge({
      name: `${PREFIX}sse_connections`,
      help: 'Open live-update (SSE) streams held by this process',
      registers: [registry],
      collect() {
        this.set(hub.size);
      },
    });
  }
  return registry;
}

/** Constant-time check of `Authorization: Bearer <token>`. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * /metrics on a listener of its own (METRICS_PORT), for workers and for
 * setups that keep metrics off the public port. Token-checked when one is set.
 */
export async function serveMetrics(registry: Registry, opts: { port: number; host: string; token?: string }): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (opts.token && !bearerMatches(req.headers.authorization, opts.token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}
