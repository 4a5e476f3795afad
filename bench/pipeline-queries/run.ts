/**
 * SQL round trips per run on the pipeline's path (submit, worker, settle, events, queue), by
 * statement: a figure a busy machine blurs less than it does bench/pipeline's timings. Counts
 * every statement a pg client sends while 200 runs from 20 users go through (Postgres only).
 *
 *   DATABASE_URL=postgres://... npx tsx bench/pipeline-queries/run.ts
 */
import pg from 'pg';
import { createTestApp, registerUser, uploadPicture } from '../../test/helpers/test-app.js';
import { createFakeAiProvider } from '../../test/helpers/fake-ai.js';
import { createMemoryMedia } from '../../test/helpers/memory-media.js';

const USERS = 20;
const RUNS = 200;

const counts = new Map<string, number>();
let counting = false;
type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const query = pg.Client.prototype.query as unknown as Query;
(pg.Client.prototype as unknown as { query: Query }).query = function (...args) {
  if (counting) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 100);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return query.apply(this, args);
};

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('Postgres only: set DATABASE_URL');
  const t = await createTestApp(
    { USER_OPEN_RUNS: String(RUNS / USERS) },
    { provider: createFakeAiProvider({ delayMs: 0 }), media: createMemoryMedia(), concurrency: 8, perUserConcurrency: 2 },
  );
  const tools = t.ctx.services.tools!;
  try {
    const users: Awaited<ReturnType<typeof registerUser>>[] = [];
    for (let i = 0; i < USERS; i++) users.push(await registerUser(t, { energy: 1000 }));
    const pictures = await Promise.all(users.map((u) => uploadPicture(t, u, 'bench.png', 64, 48)));
    const submit = (i: number) => tools.submit.submit({ id: users[i % USERS]!.id, role: 'user' as const }, 'fal-upscaler', { image_url: pictures[i % USERS]! });
    for (let i = 0; i < 5; i++) await tools.events.waitForEnd((await submit(i)).id, 10_000);
    counting = true;
    const submitted = await Promise.all(Array.from({ length: RUNS }, (_, i) => submit(i)));
    await Promise.all(submitted.map((j) => tools.events.waitForEnd(j.id, 120_000)));
    counting = false;
    let total = 0;
    for (const [text, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      total += n;
      if (n / RUNS >= 0.05) console.log(`${(n / RUNS).toFixed(2).padStart(5)}  ${text}`);
    }
    console.log(`${(total / RUNS).toFixed(1)} statements per run (a bare pg-boss send/fetch/complete is 3)`);
  } finally {
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
