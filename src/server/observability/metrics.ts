import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/db.js';
import type { RealtimeHub } from '../realtime/realtime-hub.js';
import { APP_VERSION } from '../version.js';

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

/** Process-wide: answers 429 (any limiter: route limits, sign-in throttles, upload slots, streams), by route. */
const limiterRefusals = new Counter({
  name: `${PREFIX}limiter_refusals_total`,
  help: 'Requests refused by a rate or concurrency limit (answered 429) in this process, by route pattern',
  labelNames: ['route'] as const,
  registers: [],
});

/** The route Stripe posts its events to (a refused or failed event is retried by Stripe). */
export const PAYMENT_WEBHOOK_ROUTE = '/api/webhooks/stripe';

/** Process-wide: payment webhook events this process did not accept, by status answered. */
const paymentWebhookErrors = new Counter({
  name: `${PREFIX}payment_webhook_errors_total`,
  help: 'Payment provider webhook events answered with an error in this process (4xx: bad signature or payload; 5xx: our failure, retried by the provider), by status code',
  labelNames: ['status_code'] as const,
  registers: [],
});

export type JobOutcome = 'succeeded' | 'failed' | 'canceled' | 'timed_out' | 'handed_back' | 'retry';

export function observeToolRun(tool: string, outcome: JobOutcome, seconds: number): void {
  jobDuration.observe({ tool, outcome }, seconds);
}

export function observeHttp(method: string, route: string, statusCode: number, seconds: number): void {
  httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
  if (statusCode === 429) limiterRefusals.inc({ route });
  if (route === PAYMENT_WEBHOOK_ROUTE && statusCode >= 400) paymentWebhookErrors.inc({ status_code: String(statusCode) });
}

export interface MetricsSources {
  db: Db;
  /** The process's open event streams (an API process); absent in a worker. */
  realtime?: RealtimeHub;
  /**
   * The product's tools: every tool has a queue-depth series even when idle (an absent series
   * cannot be alerted on), and the ledger's price names are reported as the tool's endpoint.
   */
  tools?: ReadonlyArray<{ endpoint: string; pricing: string }>;
  /** What the build says it is (default: the package version). */
  version?: string;
}

/** One registry per process: defaults, the process-wide series, and the database-backed ones. */
export function createMetricsRegistry(sources: MetricsSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  registry.registerMetric(httpDuration);
  registry.registerMetric(jobDuration);
  registry.registerMetric(limiterRefusals);
  registry.registerMetric(paymentWebhookErrors);
  const { db } = sources;
  const tools = sources.tools ?? [];
  const toolOfPrice = new Map(tools.map((t) => [t.pricing, t.endpoint]));

  new Gauge({
    name: `${PREFIX}build_info`,
    help: 'Always 1; the running build in its labels',
    labelNames: ['version', 'node'] as const,
    registers: [registry],
  }).set({ version: sources.version ?? APP_VERSION, node: process.version }, 1);

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
      for (const t of tools) for (const status of ['queued', 'running']) this.set({ tool: t.endpoint, status }, 0);
      for (const r of rows) this.set({ tool: r.tool, status: r.status }, r.n);
    },
  });

  new Gauge({
    name: `${PREFIX}oldest_queued_job_age_seconds`,
    help: 'Seconds the oldest waiting tool run has waited (0 when none waits); from the database',
    registers: [registry],
    async collect() {
      const [row] = await db.query<{ age: number | null }>(
        `SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age FROM tool_jobs WHERE status = 'queued'`,
      );
      this.set(Math.max(0, Number(row?.age ?? 0)));
    },
  });

  new Counter({
    name: `${PREFIX}tool_runs_ended_total`,
    help: 'Tool runs that ended, by tool and status (succeeded, failed, canceled): the denominator of a failure rate; from the database',
    labelNames: ['tool', 'status'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.query<{ tool: string; status: string; n: number }>(
        `SELECT tool, status, count(*)::int AS n FROM tool_jobs WHERE status IN ('succeeded', 'failed', 'canceled') GROUP BY 1, 2`,
      );
      this.reset();
      for (const t of tools) for (const status of ['succeeded', 'failed', 'canceled']) this.inc({ tool: t.endpoint, status }, 0);
      for (const r of rows) this.inc({ tool: r.tool, status: r.status }, r.n);
    },
  });

  new Counter({
    name: `${PREFIX}tool_runs_failed_total`,
    help: 'Tool runs that ended failed (each refunded), by tool and reason (the run error code); from the database',
    labelNames: ['tool', 'reason'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.query<{ tool: string; reason: string; n: number }>(
        `SELECT tool, COALESCE(error_code, 'unknown') AS reason, count(*)::int AS n FROM tool_jobs WHERE status = 'failed' GROUP BY 1, 2`,
      );
      this.reset();
      for (const r of rows) this.inc({ tool: r.tool, reason: r.reason }, r.n);
    },
  });

  // Deliveries that gave up (no more retries), and every failed attempt on the way.
  const deliveryFailures = async () => {
    const [row] = await db.query<{ webhooks: number; attempts: number; mails: number }>(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed')::int AS webhooks,
              (SELECT count(*) FROM webhook_attempts WHERE error IS NOT NULL OR status_code IS NULL OR status_code NOT BETWEEN 200 AND 299)::int AS attempts,
              (SELECT count(*) FROM mail_messages WHERE status = 'failed')::int AS mails`,
    );
    return row;
  };
  const failureCounter = (name: string, help: string, pick: 'webhooks' | 'attempts' | 'mails') =>
    new Counter({
      name,
      help,
      registers: [registry],
      async collect() {
        const row = await deliveryFailures();
        this.reset();
        this.inc(Number(row?.[pick] ?? 0));
      },
    });
  failureCounter(`${PREFIX}webhook_deliveries_failed_total`, 'Run webhooks given up on after every retry failed; from the database', 'webhooks');
  failureCounter(`${PREFIX}webhook_attempts_failed_total`, 'Run webhook delivery attempts that failed (retried until given up); from the database', 'attempts');
  failureCounter(`${PREFIX}mail_failed_total`, 'Mails given up on after every retry failed; from the database', 'mails');
  new Gauge({
    name: `${PREFIX}mail_retrying`,
    help: 'Mails waiting to be sent again after a failed attempt; from the database',
    registers: [registry],
    async collect() {
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE status = 'queued' AND error IS NOT NULL`);
      this.set(Number(row?.n ?? 0));
    },
  });

  // ENERGY charged per tool, and given back for that tool's failed or cancelled runs (net = spent - refunded).
  const byTool = async () =>
    db.query<{ tool: string | null; spent: number; refunded: number }>(
      `SELECT s.tool_name AS tool, sum(-s.amount)::bigint AS spent, COALESCE(sum(r.amount), 0)::bigint AS refunded
         FROM energy_transactions s
         LEFT JOIN energy_transactions r ON r.job_id = s.job_id AND r.type = 'refund'
        WHERE s.type = 'spend'
        GROUP BY s.tool_name`,
    );
  const toolEnergyCounter = (name: string, help: string, pick: 'spent' | 'refunded') =>
    new Counter({
      name,
      help,
      labelNames: ['tool'] as const,
      registers: [registry],
      async collect() {
        const rows = await byTool();
        this.reset();
        for (const t of tools) this.inc({ tool: t.endpoint }, 0);
        for (const r of rows) this.inc({ tool: toolOfPrice.get(r.tool ?? '') ?? r.tool ?? 'unknown' }, Number(r[pick]));
      },
    });
  toolEnergyCounter(`${PREFIX}energy_spent_by_tool_total`, 'ENERGY charged for runs of each tool (before refunds); from the ledger', 'spent');
  toolEnergyCounter(`${PREFIX}energy_refunded_by_tool_total`, "ENERGY refunded for each tool's failed or cancelled runs; from the ledger", 'refunded');

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
