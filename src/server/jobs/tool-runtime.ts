import type { AppContext } from '../app-context.js';
import type { Tools } from '../features/tools/create-tools.js';
import type { JobQueue } from './queue.js';
import { startAccountWorkers, startToolWorkers } from './workers.js';

export interface ToolRuntimeOptions {
  /** Run workers in this process (the app by default; a worker process always). */
  runWorkers: boolean;
  concurrency: number;
  /** Batch items at once in this process (default: concurrency). */
  batchConcurrency?: number;
  perUserConcurrency: number;
  heartbeatSeconds?: number;
  retryDelaySeconds?: number;
  superviseSeconds?: number;
  sweepIntervalMs?: number;
  maxAttempts?: number;
}

export interface ToolRuntime {
  queue: JobQueue;
  tools: Tools;
  /** Running jobs get graceSeconds to finish, then go back to the queue (default: at once). */
  stop(graceSeconds?: number): Promise<void>;
}

/**
 * Starts what tool runs need at run time on the built services: price rows
 * and providers checked, the queue started, and (when asked) workers and
 * the sweeper.
 */
export async function startToolRuntime(ctx: AppContext, opts: ToolRuntimeOptions): Promise<ToolRuntime> {
  const { registry, queue, tools, ai } = ctx.services;
  await registry.seedPrices(ctx.db);
  await registry.verify(ctx.db, ai.providerFor, Object.keys(ctx.config.aiProviders));
  await queue.start({
    heartbeatSeconds: opts.heartbeatSeconds,
    retryDelaySeconds: opts.retryDelaySeconds,
    superviseSeconds: opts.superviseSeconds,
    log: ctx.log,
  });
  let sweeper: NodeJS.Timeout | undefined;
  if (opts.runWorkers) {
    await startAccountWorkers({ queue, mail: ctx.services.mail, account: ctx.services.account });
    await startToolWorkers({
      queue,
      tools,
      media: tools.media,
      providerFor: ai.providerFor,
      log: ctx.log,
      concurrency: opts.concurrency,
      batchConcurrency: opts.batchConcurrency,
      perUserConcurrency: opts.perUserConcurrency,
      maxAttempts: opts.maxAttempts,
    });
    sweeper = setInterval(() => {
      tools.sweep.sweep().catch((err) => ctx.log.warn({ err }, 'sweep failed'));
    }, opts.sweepIntervalMs ?? 30_000);
    sweeper.unref();
  }
  return {
    queue,
    tools,
    async stop(graceSeconds = 0) {
      if (sweeper) clearInterval(sweeper);
      await queue.stop(graceSeconds);
    },
  };
}
