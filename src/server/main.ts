import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootContext, bootToolRuntime, configOrExit } from './boot.js';
import { buildApp } from './http/app.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { PRODUCT_NAME } from '../shared/constants.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const config = configOrExit();
  const ctx = await bootContext(config).catch((err) => {
    if (err instanceof DataDirBusyError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  });
  await ctx.services.auth.applyAdminEmails();
  const runtime = await bootToolRuntime(ctx, config.RUN_WORKERS);
  const app = await buildApp(ctx, { webDir: path.join(ROOT, 'dist/web'), loggerInstance: ctx.log });

  const housekeeping = setInterval(() => void ctx.services.auth.housekeeping().catch(() => {}), 10 * 60_000);
  housekeeping.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    clearInterval(housekeeping);
    await app.close().catch(() => {});
    await runtime.stop().catch(() => {});
    await ctx.db.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  ctx.log.info(`${PRODUCT_NAME} ready at ${config.publicUrl} (database: ${ctx.db.kind})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
