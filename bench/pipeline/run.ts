/**
 * Pipeline overhead: 500 runs from 50 users through the real submit path
 * (price, charge, job row, enqueue in one transaction), an instant provider,
 * and the real workers. Prints submit-to-start latency, jobs/second, and the
 * ratio against a bare pg-boss send/fetch/complete loop in the same run.
 *
 *   npx tsx bench/pipeline/run.ts            (embedded database)
 *   DATABASE_URL=postgres://... npx tsx bench/pipeline/run.ts
 */
import { performance } from 'node:perf_hooks';
import { createTestApp, registerUser, uploadPicture } from '../../test/helpers/test-app.js';
import { createFakeAiProvider } from '../../test/helpers/fake-ai.js';
import { createMemoryMedia } from '../../test/helpers/memory-media.js';

const USERS = 50;
const RUNS = 500;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main() {
  const provider = createFakeAiProvider({ delayMs: 0 });
  const media = createMemoryMedia();
  // Each user queues RUNS / USERS runs at once: the per-user cap on open runs is raised to exactly
  // that, so its check (a lock and a count in the submit transaction) stays in what is measured.
  const t = await createTestApp({ USER_OPEN_RUNS: String(RUNS / USERS) }, { provider, media, concurrency: 8, perUserConcurrency: 2 });
  const tools = t.ctx.services.tools!;
  const boss = t.runtime!.queue.boss;
  try {
    const users: Awaited<ReturnType<typeof registerUser>>[] = [];
    for (let i = 0; i < USERS; i++) users.push(await registerUser(t, { energy: 1000 }));

    // Baseline: bare pg-boss send -> fetch -> complete, same database, same process. The machine is
    // shared, so the loop is timed before, between and after the load rounds and the median is the
    // baseline; the spread is printed so a noisy run shows as one.
    await boss.createQueue('bench-bare');
    const bareRound = async () => {
      const start = performance.now();
      for (let i = 0; i < 200; i++) {
        await boss.send('bench-bare', { i });
        const [job] = await boss.fetch('bench-bare');
        if (job) await boss.complete('bench-bare', job.id);
      }
      return (performance.now() - start) / 200;
    };
    const bareRounds = [await bareRound()];

    // Most runs start from a picture in the library; a URL source first goes through the fetch
    // stage (a queue of its own), so it is measured apart.
    const pictures = await Promise.all(users.map((u) => uploadPicture(t, u, 'bench.png', 64, 48)));
    const fromLibrary = (i: number) => pictures[i % USERS]!;
    const fromUrl = (i: number) => `https://x.test/${i}.png`;
    const submit = (i: number, source: string) =>
      tools.submit.submit({ id: users[i % USERS]!.id, role: 'user' as const }, 'fal-upscaler', { image_url: source });

    // Warm-up (first queries compile plans).
    for (let i = 0; i < 5; i++) await tools.events.waitForEnd((await submit(i, fromLibrary(i))).id, 10_000);

    // Free workers: one run at a time, so the latency measured is the pipeline's own.
    const idleLatencies: number[] = [];
    for (let i = 0; i < 50; i++) {
      const ended = await tools.events.waitForEnd((await submit(i, fromLibrary(i))).id, 10_000);
      idleLatencies.push(new Date(ended.started_at!).getTime() - new Date(ended.created_at).getTime());
    }

    // Load: RUNS runs from USERS users at once.
    const loadRound = async (sourceOf: (i: number) => string) => {
      const start = performance.now();
      const submitted = await Promise.all(Array.from({ length: RUNS }, (_, i) => submit(i, sourceOf(i))));
      const ended = await Promise.all(submitted.map((j) => tools.events.waitForEnd(j.id, 120_000)));
      const seconds = (performance.now() - start) / 1000;
      return {
        seconds,
        latencies: ended.map((j) => new Date(j.started_at!).getTime() - new Date(j.created_at).getTime()),
        ok: ended.filter((j) => j.status === 'succeeded').length,
        msPerJob: (seconds * 1000) / RUNS,
      };
    };
    const library = await loadRound(fromLibrary);
    bareRounds.push(await bareRound());
    const url = await loadRound(fromUrl);
    bareRounds.push(await bareRound());
    const bareMsPerJob = pct(bareRounds, 50);
    const [{ spent }] = await t.db.query<{ spent: number }>("SELECT -SUM(amount)::int AS spent FROM energy_transactions WHERE type = 'spend'");
    console.log(`database: ${t.db.kind}`);
    console.log(`bare pg-boss send/fetch/complete: ${bareMsPerJob.toFixed(2)} ms/job median (${(1000 / bareMsPerJob).toFixed(0)} jobs/s; rounds ${bareRounds.map((ms) => ms.toFixed(2)).join(', ')} ms)`);
    console.log(`idle workers, submit-to-start: p50 ${pct(idleLatencies, 50)} ms, p99 ${pct(idleLatencies, 99)} ms (target p99 < 100 ms)`);
    console.log(`load (${RUNS} runs, ${USERS} users, library sources): ${library.ok}/${RUNS} succeeded in ${library.seconds.toFixed(2)} s = ${(RUNS / library.seconds).toFixed(1)} jobs/s`);
    console.log(`load submit-to-start: p50 ${pct(library.latencies, 50)} ms, p99 ${pct(library.latencies, 99)} ms (queueing behind busy workers)`);
    console.log(`pipeline vs bare pg-boss: ${(library.msPerJob / bareMsPerJob).toFixed(2)}x time per job (${library.msPerJob.toFixed(2)} vs ${bareMsPerJob.toFixed(2)} ms; target <= 3x)`);
    console.log(`URL sources (fetch stage, then the run): ${url.ok}/${RUNS} succeeded, ${(url.msPerJob / bareMsPerJob).toFixed(2)}x bare pg-boss (${url.msPerJob.toFixed(2)} ms per run)`);
    console.log(`ENERGY charged: ${spent} for ${2 * RUNS + 55} runs at 2 each (expected ${(2 * RUNS + 55) * 2})`);
  } finally {
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
