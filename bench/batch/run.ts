/**
 * Batch Processing, with an instant provider, the real library and the real
 * workers (two per queue, two runs per user at once):
 *
 *  (a) a 100-image batch against 100 single runs of the same images
 *      submitted one by one, in the same run: time to the last result;
 *  (b) the wait (created -> started) of another user's single runs
 *      submitted while a 100-image batch is working (target p99 < 1 s);
 *  (c) server RSS while a 100-image batch is downloaded as a ZIP over HTTP
 *      (target: flat, under +50 MB over the RSS before the download).
 *
 *   npm run bench -- batch                     (embedded database)
 *   DATABASE_URL=postgres://... npm run bench -- batch
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { copiesOfItem, createTestApp, registerUser, uploadPicture, type TestApp, type TestUser } from '../../test/helpers/test-app.js';
import { createFakeAiProvider } from '../../test/helpers/fake-ai.js';
import type { AiProvider } from '../../src/server/providers/ai/ai-provider.js';
import type { AnyToolRuntime } from '../../src/server/providers/ai/hooks.js';

const ITEMS = 100;
const SIDE_RUNS = 20;
const MB = 1024 * 1024;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** The fake provider, except that upscales answer with a copy of one large picture (for the ZIP). */
function providerWith(bigResult: () => string | null): AiProvider {
  const fake = createFakeAiProvider({ delayMs: 0 });
  const runtime: AnyToolRuntime = {
    ...fake.runtime,
    async answer(info, input, media, ctx) {
      const big = bigResult();
      if (!big || info.endpoint !== 'fal-upscaler') return fake.runtime.answer(info, input, media, ctx);
      const out = path.join(ctx.workDir, 'out.png');
      await fs.copyFile(big, out);
      return { path: out, contentType: 'image/png', model: 'fake-upscale' };
    },
  };
  return { ...fake, runtime };
}

/** n library images of the user (entries sharing one stored file, as deduplicated uploads do). */
async function libraryImages(t: TestApp, user: TestUser, n: number): Promise<string[]> {
  const first = await uploadPicture(t, user);
  return [first, ...(await copiesOfItem(t, user, first, n - 1))];
}

async function untilEnded(t: TestApp, jobIds: string[]): Promise<void> {
  for (;;) {
    const [{ open }] = await t.db.query<{ open: number }>(
      "SELECT count(*)::int AS open FROM tool_jobs WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'running')",
      [jobIds],
    );
    if (open === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function main() {
  let big: string | null = null;
  const dataDir = path.resolve(`.tmp/bench-batch-${process.pid}`);
  // (a) queues the 100 single runs at once, as the batch does: the per-user cap on open single
  // runs is raised to that, so its check stays in what is measured without refusing the comparison.
  const t = await createTestApp({ DATA_DIR: dataDir, USER_OPEN_RUNS: String(ITEMS) }, { provider: providerWith(() => big), concurrency: 2, perUserConcurrency: 2 });
  const { batches, tools } = t.ctx.services;
  try {
    const a = await registerUser(t, { energy: 10_000 });
    const b = await registerUser(t, { energy: 10_000 });
    const side = await registerUser(t, { energy: 10_000 });
    const imagesA = await libraryImages(t, a, ITEMS);
    const imagesB = await libraryImages(t, b, ITEMS);
    const sideImage = await uploadPicture(t, side);
    const asCaller = (u: TestUser) => ({ id: u.id, role: 'user' as const });

    // Warm-up: first queries compile their plans.
    const warm = await batches.create(asCaller(side), { tool: 'fal-upscaler', settings: {}, items: [sideImage] });
    await untilEnded(t, warm.items.map((i) => i.job_id));

    // (a) one batch vs one-by-one single runs of the same images.
    let start = performance.now();
    const batch = await batches.create(asCaller(a), { tool: 'fal-upscaler', settings: {}, items: imagesA });
    const submitBatchMs = performance.now() - start;
    await untilEnded(t, batch.items.map((i) => i.job_id));
    const batchSeconds = (performance.now() - start) / 1000;

    start = performance.now();
    const singles: string[] = [];
    for (const image of imagesB) singles.push((await tools.submit.submit(asCaller(b), 'fal-upscaler', { image_url: image })).id);
    const submitSinglesMs = performance.now() - start;
    await untilEnded(t, singles);
    const singlesSeconds = (performance.now() - start) / 1000;

    // (b) another user's single runs while a batch works.
    const during = await batches.create(asCaller(a), { tool: 'fal-upscaler', settings: {}, items: imagesA });
    const sideJobs: string[] = [];
    for (let i = 0; i < SIDE_RUNS; i++) {
      sideJobs.push((await tools.submit.submit(asCaller(side), 'fal-upscaler', { image_url: sideImage })).id);
      await new Promise((r) => setTimeout(r, 50));
    }
    await untilEnded(t, sideJobs);
    const [{ still_open: stillOpen }] = await t.db.query<{ still_open: number }>(
      "SELECT count(*)::int AS still_open FROM tool_jobs WHERE batch_id = $1 AND status IN ('queued', 'running')",
      [during.id],
    );
    const waits = (
      await t.db.query<{ ms: number }>(
        'SELECT (EXTRACT(EPOCH FROM (started_at - created_at)) * 1000)::float8 AS ms FROM tool_jobs WHERE id = ANY($1::uuid[])',
        [sideJobs],
      )
    ).map((r) => r.ms);
    await untilEnded(t, during.items.map((i) => i.job_id));

    // (c) RSS while a 100-image ZIP of ~2 MB results streams over HTTP.
    const bigFile = path.join(dataDir, 'big-result.png');
    await sharp({ create: { width: 900, height: 800, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toFile(bigFile);
    big = bigFile;
    const zipBatch = await batches.create(asCaller(a), { tool: 'fal-upscaler', settings: {}, items: imagesA });
    await untilEnded(t, zipBatch.items.map((i) => i.job_id));
    big = null;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    global.gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    start = performance.now();
    const res = await fetch(`${base}/api/batches/${zipBatch.id}/download`, { headers: a.headers });
    if (res.status !== 200 || !res.body) throw new Error(`download failed: ${res.status}`);
    let zipBytes = 0;
    for await (const chunk of res.body) zipBytes += (chunk as Uint8Array).byteLength;
    const zipSeconds = (performance.now() - start) / 1000;
    clearInterval(sampler);

    console.log(`database: ${t.db.kind}; workers: 2 per queue, 2 runs per user at once; instant provider`);
    console.log(
      `(a) ${ITEMS}-image batch: ${batchSeconds.toFixed(2)} s (submit ${submitBatchMs.toFixed(0)} ms) vs ${ITEMS} single runs one by one: ${singlesSeconds.toFixed(2)} s (submit ${submitSinglesMs.toFixed(0)} ms)`,
    );
    console.log(`    batch throughput / single-run throughput: ${(singlesSeconds / batchSeconds).toFixed(2)}x`);
    console.log(
      `(b) another user's single runs during a batch (${SIDE_RUNS} runs, ${stillOpen} batch items still open at the end): wait p50 ${pct(waits, 50).toFixed(0)} ms, p99 ${pct(waits, 99).toFixed(0)} ms (target p99 < 1000 ms)`,
    );
    console.log(
      `(c) ${ITEMS}-image ZIP: ${(zipBytes / MB).toFixed(1)} MB in ${zipSeconds.toFixed(2)} s; RSS ${(rssBefore / MB).toFixed(0)} MB before, peak ${(rssPeak / MB).toFixed(0)} MB (+${((rssPeak - rssBefore) / MB).toFixed(1)} MB; target < +50 MB)`,
    );
  } finally {
    await t.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
