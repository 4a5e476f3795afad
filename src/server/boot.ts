import pino from 'pino';
import { parseConfig, ConfigError, type Config } from './config.js';
import { openDatabase } from './db/open-db.js';
import { createServices, type AppContext } from './app-context.js';
import { startToolRuntime, type ToolRuntime } from './jobs/tool-runtime.js';
import { createAiProviders } from './providers/ai/create-ai-providers.js';
import { libraryMediaPort } from './features/tools/library-media.js';

/** config -> db (migrated) -> services: shared by the app, the worker and the CLI. */
export async function bootContext(config: Config = parseConfig()): Promise<AppContext> {
  const log = pino({
    level: config.LOG_LEVEL,
    ...(config.isProduction || !process.stdout.isTTY ? {} : { transport: { target: 'pino-pretty' } }),
  });
  const db = await openDatabase(config);
  const services = createServices(config, db, log);
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
 * sweeper) on a booted context; the tools service joins ctx.services.
 */
export async function bootToolRuntime(ctx: AppContext, runWorkers: boolean): Promise<ToolRuntime> {
  const providers = createAiProviders(ctx.config);
  const runtime = await startToolRuntime(ctx, {
    media: libraryMediaPort(ctx.services.library),
    providerFor: providers.providerFor,
    runWorkers,
    concurrency: ctx.config.workerConcurrency,
    perUserConcurrency: ctx.config.USER_CONCURRENCY,
  });
  ctx.services.tools = runtime.tools;
  return {
    ...runtime,
    async stop() {
      await runtime.stop();
      await providers.close();
    },
  };
}
