import pino from 'pino';
import { parseConfig, ConfigError, type Config } from './config.js';
import { openDatabase } from './db/open-db.js';
import { createServices, type AppContext, type ServiceOptions } from './app-context.js';
import { startToolRuntime, type ToolRuntime } from './jobs/tool-runtime.js';
import { startWebhookDispatcher } from './features/webhooks/webhook-dispatcher.js';
import { requestIdMixin } from './http/request-id.js';
import { configureFfmpeg, describeFfmpeg } from './providers/ai/local/ffmpeg.js';
import { createMetricsRegistry, serveMetrics } from './observability/metrics.js';
import type { Registry } from 'prom-client';

/** config -> db (migrated) -> services: shared by the app, the worker and the CLI. */
export async function bootContext(config: Config = parseConfig(), opts: ServiceOptions = {}): Promise<AppContext> {
  const log = pino({
    level: config.LOG_LEVEL,
    mixin: requestIdMixin,
    ...(config.isProduction || !process.stdout.isTTY ? {} : { transport: { target: 'pino-pretty' } }),
  });
  configureFfmpeg({ ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH });
  const db = await openDatabase(config);
  const services = createServices(config, db, log, opts);
  return { config, db, log, services };
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
  const registry = createMetricsRegistry({ db: ctx.db, realtime: withStreams ? ctx.services.realtime : undefined });
  const { METRICS_PORT: port, METRICS_HOST: host, METRICS_TOKEN: token } = ctx.config;
  if (!port) return { registry, close: async () => {} };
  const server = await serveMetrics(registry, { port, host, token });
  ctx.log.info(`metrics at http://${host}:${port}/metrics`);
  return {
    registry,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
