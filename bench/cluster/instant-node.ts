/**
 * One node of the benchmark cluster: the app's own composition (config,
 * database, services, queue, HTTP) with an instant provider in place of the
 * AI, so the figures measure the platform (HTTP, charge, queue, storage,
 * events) and not the models. BENCH_ROLE: all | api | worker.
 */
import { bootContext, configOrExit } from '../../src/server/boot.js';
import { buildApp } from '../../src/server/http/app.js';
import { startToolRuntime } from '../../src/server/jobs/tool-runtime.js';
import { createFakeAiProvider } from '../../test/helpers/fake-ai.js';

const role = process.env.BENCH_ROLE ?? 'all';
const config = configOrExit();
const provider = createFakeAiProvider({ delayMs: 0 });
const ctx = await bootContext(config, { ai: { providerFor: () => provider, close: async () => {} } });
const runtime = await startToolRuntime(ctx, {
  runWorkers: role !== 'api',
  concurrency: config.workerConcurrency,
  perUserConcurrency: config.USER_CONCURRENCY,
});
const app = role === 'worker' ? undefined : await buildApp(ctx);
await app?.listen({ port: config.PORT, host: config.HOST });
console.log(`bench node ${role} ready`);
const stop = async () => {
  await app?.close().catch(() => {});
  await runtime.stop().catch(() => {});
  await ctx.db.close().catch(() => {});
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
