import { bootContext, bootToolRuntime, configOrExit } from './boot.js';

/**
 * A worker-only process for scaling out tool runs. It shares the database
 * with the app, so it needs a Postgres server: the embedded database belongs
 * to the app process alone.
 */
async function main() {
  const config = configOrExit();
  if (!config.DATABASE_URL) {
    console.error(
      'A separate worker needs a Postgres server shared with the app: set DATABASE_URL. ' +
        'With the embedded database, the app process runs the workers itself.',
    );
    process.exit(1);
  }
  const ctx = await bootContext(config);
  const runtime = await bootToolRuntime(ctx, true);
  ctx.log.info({ concurrency: config.workerConcurrency }, 'worker started');
  const shutdown = async () => {
    await runtime.stop().catch(() => {});
    await ctx.db.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
