import pino from 'pino';
import { parseConfig, ConfigError, type Config } from './config.js';
import { openDatabase } from './db/open-db.js';
import { migrate } from './db/migrate.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { DependencyError, describeDatabase, checkFalReachable, describeStorage, productionWarnings, reasonOf, withBackoff, within } from './lifecycle/dependency-checks.js';
import { PRODUCT_NAME } from '../shared/constants.js';
import { createServices, type AppContext, type ServiceOptions } from './app-context.js';
import { startToolRuntime, type ToolRuntime } from './jobs/tool-runtime.js';
import { startWebhookDispatcher } from './features/webhooks/webhook-dispatcher.js';
import { requestIdMixin } from './http/request-id.js';
import { configureFfmpeg, describeFfmpeg } from './providers/ai/local/ffmpeg.js';
import { createMetricsRegistry, serveMetrics } from './observability/metrics.js';
import type { Registry } from 'prom-client';
import { StripePriceError } from './features/payments/stripe-prices.js';

/** config -> db (migrated) -> services: shared by the app, the worker and the CLI. */
export async function bootContext(config: Config = parseConfig(), opts: ServiceOptions = {}): Promise<AppContext> {
  const log = pino({
    level: config.LOG_LEVEL,
    mixin: requestIdMixin,
    ...(config.isProduction || !process.stdout.isTTY || !prettyLogsInstalled() ? {} : { transport: { target: 'pino-pretty' } }),
  });
  configureFfmpeg({ ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH });
  // A Postgres server started beside the app may not take connections yet: retried.
  // The embedded database is a folder: trying again would not change the answer.
  const db = config.DATABASE_URL
    ? await withBackoff('database', describeDatabase(config), () => openDatabase(config, { migrate: false }), { waitSeconds: config.STARTUP_WAIT_SECONDS, log })
    : await openDatabase(config, { migrate: false }).catch((err: unknown) => {
        if (err instanceof DataDirBusyError) throw err;
        throw new DependencyError('database', `cannot open ${describeDatabase(config)}: ${reasonOf(err)}`);
      });
  await migrate(db);
  const services = createServices(config, db, log, opts);
  return { config, db, log, services };
}

/**
 * What a serving process checks once before it takes traffic: storage (retried like the
 * database), then mail and a cloud AI provider (warnings: their work is queued and retried),
 * and the production settings that would leave the site unable to sell or to verify.
 * Payments are checked when their routes load (every bundle's Stripe price).
 */
export async function checkDependencies(ctx: AppContext): Promise<void> {
  const { config, log } = ctx;
  await withBackoff('storage', describeStorage(config), () => within(ctx.services.library.storage.check(), 10_000, 'storage'), {
    waitSeconds: config.STARTUP_WAIT_SECONDS,
    log,
  });
  await ctx.services.mail.checkTransport().catch((err: unknown) => {
    log.warn({ dependency: 'mail' }, `mail: cannot reach the SMTP server (${reasonOf(err)}); mails wait in the queue and are retried`);
  });
  await checkFalReachable(config).catch((err: unknown) => {
    log.warn({ dependency: 'AI provider' }, `AI provider: cannot reach fal.ai (${reasonOf(err)}); runs on it will fail and be refunded until it answers`);
  });
  for (const warning of productionWarnings(config)) log.warn({ production: true }, `WARNING: ${warning}`);
}

/**
 * The last word of a process that could not start: one line naming what is wrong
 * (a dependency, a busy data directory), or the error itself when it is unexpected.
 */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof DependencyError || err instanceof DataDirBusyError || err instanceof StripePriceError) {
    console.error(`${PRODUCT_NAME} cannot start: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
}

/** pino-pretty is a development tool: a production install (`--omit=dev`) logs plain JSON lines. */
function prettyLogsInstalled(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** Reads config or exits with a message naming the bad setting. */
export function configOrExit(): Config {
  try {
    return parseConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Starts the queue and tool service (and, when asked, workers and the
 * sweeper) on a booted context.
 */
export async function bootToolRuntime(ctx: AppContext, runWorkers: boolean): Promise<ToolRuntime> {
  const runtime = await startToolRuntime(ctx, {
    runWorkers,
    concurrency: ctx.config.workerConcurrency,
    batchConcurrency: ctx.config.batchConcurrency,
    perUserConcurrency: ctx.config.USER_CONCURRENCY,
  });
  const webhooks = runWorkers ? await startWebhookDispatcher(ctx.db, ctx.services.webhooks, ctx.log) : null;
  return {
    ...runtime,
    async stop(graceSeconds?: number) {
      await webhooks?.stop();
      await runtime.stop(graceSeconds);
      await ctx.services.ai.close();
    },
  };
}

/** Says at start which ffmpeg decodes uploads (a missing one is a warning, not a stop). */
export function logFfmpeg(ctx: AppContext): void {
  const { ffmpeg, ffprobe } = describeFfmpeg();
  const entry = { ffmpeg: `${ffmpeg.path} (${ffmpeg.source})`, ffprobe: `${ffprobe.path} (${ffprobe.source})` };
  if (!ffmpeg.version || !ffprobe.version) {
    ctx.log.warn(entry, 'ffmpeg or ffprobe does not run: video uploads and video tools will fail (set FFMPEG_PATH / FFPROBE_PATH)');
  } else {
    ctx.log.info({ ...entry, version: ffmpeg.version }, `using ${ffmpeg.version}`);
  }
}

/** The process's metrics registry, and its own listener when METRICS_PORT is set. */
export async function bootMetrics(ctx: AppContext, withStreams: boolean): Promise<{ registry: Registry; close(): Promise<void> }> {
  const registry = createMetricsRegistry({
    db: ctx.db,
    realtime: withStreams ? ctx.services.realtime : undefined,
    tools: ctx.services.registry.list.map((t) => t.info),
  });
  const { METRICS_PORT: port, METRICS_HOST: host, METRICS_TOKEN: token } = ctx.config;
  if (!port) return { registry, close: async () => {} };
  const server = await serveMetrics(registry, { port, host, token });
  ctx.log.info(`metrics at http://${host}:${port}/metrics`);
  return {
    registry,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
