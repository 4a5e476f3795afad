import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootContext, bootMetrics, bootToolRuntime, checkDependencies, configOrExit, exitOnStartupError, logFfmpeg } from './boot.js';
import { buildApp } from './http/app.js';
import { exitAfterDrain } from './lifecycle/shutdown.js';
import { PRODUCT_NAME } from '../shared/constants.js';

// src/server/main.ts and the compiled dist/server/main.js sit at the same depth.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Capped by the kernel's own limit (net.core.somaxconn). */
const LISTEN_BACKLOG = 4096;

async function main() {
  const startedAt = performance.now();
  const config = configOrExit();
  const ctx = await bootContext(config);
  await checkDependencies(ctx);
  logFfmpeg(ctx);
  await ctx.services.auth.applyAdminEmails();
  const runtime = await bootToolRuntime(ctx, config.RUN_WORKERS);
  const metrics = await bootMetrics(ctx, true);
  let draining = false;
  const app = await buildApp(ctx, {
    webDir: path.join(ROOT, 'dist/web'),
    loggerInstance: ctx.log,
    queueReady: () => !draining && runtime.queue.running,
    metrics: metrics.registry,
  });

  // Expired sessions, throttle history, reset and confirmation tokens.
  const tidy = () => Promise.all([ctx.services.auth.housekeeping(), ctx.services.account.housekeeping(), ctx.services.shares.sweep()]);
  const housekeeping = setInterval(() => void tidy().catch(() => {}), 10 * 60_000);
  housekeeping.unref();

  const grace = config.SHUTDOWN_GRACE_SECONDS;
  exitAfterDrain(
    ctx.log,
    async (signal) => {
      draining = true;
      ctx.log.info({ signal, graceSeconds: grace }, 'draining: no new requests or jobs; running jobs may finish');
      clearInterval(housekeeping);
      // The listener closes at once (streams get a retry hint); running jobs
      // keep going meanwhile and are handed back if the grace period ends first.
      await Promise.all([app.close(), runtime.stop(grace)]);
      await metrics.close();
      await ctx.db.close();
    },
    (grace + 15) * 1000,
  );

  // Node's default queue of 511 unaccepted connections overflows in a burst of new ones; the kernel
  // then drops them and the client (an attacker or a visitor) waits a second or more to retry.
  await app.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG });
  ctx.log.info(
    { startupMs: Math.round(performance.now() - startedAt) },
    `${PRODUCT_NAME} ready at ${config.publicUrl} (database: ${ctx.db.kind})`,
  );
}

main().catch(exitOnStartupError);
