import { bootContext, bootMetrics, bootToolRuntime, checkDependencies, configOrExit, exitOnStartupError, logFfmpeg } from './boot.js';
import { exitAfterDrain } from './lifecycle/shutdown.js';

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
  await checkDependencies(ctx);
  logFfmpeg(ctx);
  const runtime = await bootToolRuntime(ctx, true);
  const metrics = await bootMetrics(ctx, false);
  const grace = config.SHUTDOWN_GRACE_SECONDS;
  exitAfterDrain(
    ctx.log,
    async (signal) => {
      ctx.log.info({ signal, graceSeconds: grace }, 'draining: no new jobs; running jobs may finish');
      await runtime.stop(grace);
      await metrics.close();
      await ctx.db.close();
    },
    (grace + 15) * 1000,
  );
  ctx.log.info({ concurrency: config.workerConcurrency }, 'worker started');
}

main().catch(exitOnStartupError);
