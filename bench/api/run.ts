/**
 * Public API latency: `npm run bench -- api`.
 *
 * 200 tool runs over real HTTP with an instant provider, two ways, in the
 * same run on the same server:
 *   - async-first: POST with `Prefer: respond-async` (202 + job_id), then the
 *     run's end arrives on the user's server-event stream (GET /api/events);
 *   - the spec's synchronous call: POST waits and answers with the result.
 * Prints submit-to-result latency (p50/p99) for both and their ratio.
 * Then, on the same server: the synchronous call with a personal API key vs
 * the same call with a session token, and the cost of a list page
 * (GET /api/jobs, 20 a page) at the start vs deep in the list (keyset
 * cursors should make both alike). Not part of the test run.
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
    // The per-key limit stays on (its check is part of a key's cost) but far above what the bench sends.
    { TOOL_RUNS_PER_MINUTE: '0', API_KEY_CALLS_PER_MINUTE: '1000000' },
    { provider: createFakeAiProvider({ delayMs: 0 }), media: createMemoryMedia(), concurrency: 4, perUserConcurrency: 4 },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  try {
    const user = await registerUser(t, { energy: 10 * (RUNS * 4 + WARM_UP * 4) });
    const events = await followEvents(base, user.token);
    const call = (i: number, prefer?: string, token = user.token) =>
      fetch(`${base}/functions/v1/fal-upscaler`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(prefer ? { prefer } : {}) },
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
    async function syncRun(i: number, token?: string): Promise<number> {
      const t0 = performance.now();
      const res = await call(i, undefined, token);
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

    // The same synchronous call, authenticated by a personal API key (hash lookup + per-key limit) vs the session.
    const created = await fetch(`${base}/api/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ name: 'bench' }),
    });
    if (created.status !== 201) throw new Error(`key create answered ${created.status}: ${await created.text()}`);
    const apiKey = ((await created.json()) as { token: string }).token;
    for (let i = 0; i < WARM_UP; i++) await syncRun(-i - 200, apiKey);
    const keyMs: number[] = [];
    const sessionMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      keyMs.push(await syncRun(2 * RUNS + i, apiKey));
      sessionMs.push(await syncRun(3 * RUNS + i));
    }
    console.log(`sync call, session token:       p50 ${ms(pct(sessionMs, 50))}, p99 ${ms(pct(sessionMs, 99))}`);
    console.log(`sync call, API key:             p50 ${ms(pct(keyMs, 50))}, p99 ${ms(pct(keyMs, 99))}`);
    console.log(`API key vs session:             p50 ${(pct(keyMs, 50) / pct(sessionMs, 50)).toFixed(2)}x, p99 ${(pct(keyMs, 99) / pct(sessionMs, 99)).toFixed(2)}x`);

    // Every page of the user's run list, first to last, several passes: the first page vs the deepest ones.
    const page = async (cursor: string | null) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/jobs?limit=20${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${user.token}` } });
      if (res.status !== 200) throw new Error(`list answered ${res.status}`);
      const body = (await res.json()) as { items: unknown[]; next_cursor: string | null };
      return { took: performance.now() - t0, next: body.next_cursor };
    };
    const firstMs: number[] = [];
    const deepMs: number[] = [];
    let pages = 0;
    for (let pass = 0; pass < 5; pass++) {
      const tookByPage: number[] = [];
      let cursor: string | null = null;
      do {
        const got = await page(cursor);
        tookByPage.push(got.took);
        cursor = got.next;
      } while (cursor);
      pages = tookByPage.length;
      if (pass === 0) continue; // warm-up
      // The first page again, back to back like the deep ones: the same machine state for both.
      for (let i = 0; i < 3; i++) firstMs.push((await page(null)).took);
      deepMs.push(...tookByPage.slice(-3));
    }
    console.log(`list paging (${pages} pages of 20):  first page p50 ${ms(pct(firstMs, 50))}, last pages p50 ${ms(pct(deepMs, 50))}`);
    console.log(`deep vs first page:             p50 ${(pct(deepMs, 50) / pct(firstMs, 50)).toFixed(2)}x`);
  } finally {
    await t.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
