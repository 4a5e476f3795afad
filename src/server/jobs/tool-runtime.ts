import type { AppContext } from '../app-context.js';
import type { AiProvider } from '../providers/ai/ai-provider.js';
import { ToolsService } from '../features/tools/tools.service.js';
import type { ToolMediaPort } from '../features/tools/tool-media.js';
import { TOOLS, type ToolEndpoint } from '../../shared/tools.js';
import { JobQueue } from './queue.js';
import { startToolWorkers } from './tool-run.worker.js';

export interface ToolRuntimeOptions {
  media: ToolMediaPort;
  providerFor(tool: ToolEndpoint): AiProvider;
  /** Run workers in this process (the app by default; a worker process always). */
  runWorkers: boolean;
  concurrency: number;
  perUserConcurrency: number;
  heartbeatSeconds?: number;
  retryDelaySeconds?: number;
  superviseSeconds?: number;
  sweepIntervalMs?: number;
  maxAttempts?: number;
}

export interface ToolRuntime {
  queue: JobQueue;
  tools: ToolsService;
  stop(): Promise<void>;
}

/** Queue + tools service (+ workers and the sweeper): what tool runs need at run time. */
export async function startToolRuntime(ctx: AppContext, opts: ToolRuntimeOptions): Promise<ToolRuntime> {
  const queue = await JobQueue.start(ctx.db, { heartbeatSeconds: opts.heartbeatSeconds, retryDelaySeconds: opts.retryDelaySeconds,
    superviseSeconds: opts.superviseSeconds,
    log: ctx.log,
  });
  const tools = new ToolsService(
    ctx.db,
    ctx.services.energy,
    ctx.services.pricing,
    queue,
    opts.media,
    ctx.services.realtime,
    (endpoint, body) =>
      endpoint === 'fal-image-editor' ? (opts.providerFor(endpoint).validateEditPrompt?.(String(body.prompt ?? '')) ?? null) : null,
  );
  // The library's retry of a pending or failed video runs the tool again.
  ctx.services.library.setRetryHandler(({ userId, item }) => tools.retryLibraryItem(userId, item));
  ctx.services.library.setPendingDeleteHandler(async ({ userId, jobId }) => {
    await tools.cancel(userId, jobId).catch(() => {}); // already ended: nothing to stop
  });
  let sweeper: NodeJS.Timeout | undefined;
  if (opts.runWorkers) {
    await startToolWorkers({
      queue,
      tools,
      media: opts.media,
      providerFor: opts.providerFor,
      log: ctx.log,
      concurrency: opts.concurrency,
      perUserConcurrency: opts.perUserConcurrency,
      maxAttempts: opts.maxAttempts,
    });
    sweeper = setInterval(() => {
      tools.sweep().catch((err) => ctx.log.warn({ err }, 'sweep failed'));
    }, opts.sweepIntervalMs ?? 30_000);
    sweeper.unref();
  }
  return {
    queue,
    tools,
    async stop() {
      if (sweeper) clearInterval(sweeper);
      ctx.services.library.setRetryHandler(null);
      ctx.services.library.setPendingDeleteHandler(null);
      await queue.stop();
    },
  };
}

export const TOOL_ENDPOINTS = Object.keys(TOOLS) as ToolEndpoint[];
