/**
 * Public API latency: `npm run bench -- api`.
 *
 * 200 tool runs over real HTTP with an instant provider, two ways, in the
 * same run on the same server:
 *   - async-first: POST with `Prefer: respond-async` (202 + job_id), then the
 *     run's end arrives on the user's server-event stream (GET /api/events);
 *   - the spec's synchronous call: POST waits and answers with the result.
 * Prints submit-to-result latency (p50/p99) for both and their ratio.
 * Not part of the test run.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createTestApp, registerUser } from '../../test/helpers/test-app.js';
import { createFakeAiProvider } from '../../test/helpers/fake-ai.js';
import { createMemoryMedia } from '../../test/helpers/memory-media.js';

const RUNS = 200;
const WARM_UP = 10;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** The user's event stream: resolves a waiter when the job it waits for has ended. */
async function followEvents(base: string, token: string) {
  const waiters = new Map<string, () => void>();
  const ended = new Set<string>();
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`events ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const type = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (type === 'ready') ready();
        if (type !== 'job' || !data) continue;
        const event = JSON.parse(data) as { id: string; status: string };
        if (!['succeeded', 'failed', 'canceled'].includes(event.status)) continue;
        ended.add(event.id);
        waiters.get(event.id)?.();
      }
    }
  })();
  await isReady;
  return {
    untilEnded: (jobId: string) =>
      ended.has(jobId) ? Promise.resolve() : new Promise<void>((resolve) => waiters.set(jobId, resolve)),
    close: () => controller.abort(),
  };
}

async function main() {
  const t = await createTestApp(
    { TOOL_RUNS_PER_MINUTE: '0' },
    { provider: createFakeAiProvider({ delayMs: 0 }), media: createMemoryMedia(), concurrency: 4, perUserConcurrency: 4 },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  try {
    const user = await registerUser(t, { energy: 10 * (RUNS * 2 + WARM_UP * 2) });
    const events = await followEvents(base, user.token);
    const call = (i: number, prefer?: string) =>
      fetch(`${base}/functions/v1/fal-upscaler`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}`, ...(prefer ? { prefer } : {}) },
        body: JSON.stringify({ image_url: `https://x.test/${i}.png`, scale: 2 }),
      });

    async function asyncRun(i: number): Promise<number> {
      const t0 = performance.now();
      const res = await call(i, 'respond-async');
      if (res.status !== 202) throw new Error(`async call answered ${res.status}: ${await res.text()}`);
      const { job_id } = (await res.json()) as { job_id: string };
      await events.untilEnded(job_id);
      return performance.now() - t0;
    }
    async function syncRun(i: number): Promise<number> {
      const t0 = performance.now();
      const res = await call(i);
      if (res.status !== 200) throw new Error(`sync call answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return performance.now() - t0;
    }

    for (let i = 0; i < WARM_UP; i++) {
      await asyncRun(-i - 1);
      await syncRun(-i - 100);
    }
    // Interleaved, one run at a time: both ways see the same machine state.
    const asyncMs: number[] = [];
    const syncMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      asyncMs.push(await asyncRun(i));
      syncMs.push(await syncRun(RUNS + i));
    }
    events.close();

    console.log(`database: ${t.db.kind}; ${RUNS} runs each way, instant provider, one at a time`);
    console.log(`synchronous call (spec):        p50 ${ms(pct(syncMs, 50))}, p99 ${ms(pct(syncMs, 99))}`);
    console.log(`respond-async + server events:  p50 ${ms(pct(asyncMs, 50))}, p99 ${ms(pct(asyncMs, 99))}`);
    console.log(`async vs sync submit-to-result: p50 ${(pct(asyncMs, 50) / pct(syncMs, 50)).toFixed(2)}x, p99 ${(pct(asyncMs, 99) / pct(syncMs, 99)).toFixed(2)}x`);
  } finally {
    await t.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
