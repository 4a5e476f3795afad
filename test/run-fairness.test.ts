import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { png, tempDir, upload } from './library.fixtures.js';

/**
 * Fairness (issue 22): a run's URL source is fetched before the run takes a worker slot, one
 * fetch per user at a time, so one user's runs whose source hangs hold no run slot at all and
 * another user's run starts within the normal wait, even on a process with a single slot; the
 * fetch gives up after SOURCE_FETCH_TIMEOUT_SECONDS, refunded; a source that answers is fetched
 * once and the run reads it. Both databases (this file runs with and without DATABASE_URL).
 */
let hanging: http.Server;
let image: Buffer | undefined;
let port = 0;
const open: http.ServerResponse[] = [];
/** When each request to the hanging server arrived and when its connection was closed by the fetcher. */
const seen: { at: number; closedAt?: number }[] = [];
beforeAll(async () => {
  hanging = http.createServer((req, res) => {
    const entry: { at: number; closedAt?: number } = { at: Date.now() };
    seen.push(entry);
    req.socket.on('close', () => (entry.closedAt = Date.now()));
    if (req.url?.startsWith('/good-') && image) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length }).end(image);
      return;
    }
    open.push(res); // never answers
  });
  image = await png();
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
  port = (hanging.address() as AddressInfo).port;
});
afterAll(() => {
  for (const res of open) res.destroy();
  hanging.closeAllConnections();
  hanging.close();
});

function start(t: TestApp, user: TestUser, imageUrl: string) {
  return t.app.inject({
    method: 'POST',
    url: '/functions/v1/fal-upscaler',
    headers: { ...user.headers, prefer: 'respond-async' },
    payload: { image_url: imageUrl },
  });
}

describe("another user's run is not held up by one user's hanging sources", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      // A source deadline far longer than the test, and one run slot: were a hanging fetch to hold
      // it, the other user's run would wait the whole minute.
      { FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`, SOURCE_FETCH_TIMEOUT_SECONDS: '60', TOOL_RUNS_PER_MINUTE: '100', DATA_DIR: tempDir('pr-fair-') },
      { provider: createFakeAiProvider({ delayMs: 0 }), concurrency: 1, perUserConcurrency: 2 },
    );
  }, 60_000);
  afterAll(async () => {
    for (const res of open) res.destroy();
    await t?.close();
  });

  it("six hanging runs of user A on a one-slot process; user B's run on an uploaded image ends within a few seconds", async () => {
    const a = await registerUser(t, { energy: 100 });
    const b = await registerUser(t, { energy: 10 });
    const before = seen.length;
    const hangingRuns = await Promise.all(Array.from({ length: 6 }, (_, i) => start(t, a, `http://127.0.0.1:${port}/fair-${i}.png`)));
    expect(hangingRuns.map((r) => r.statusCode)).toEqual(Array(6).fill(202));
    // A's first source is being fetched, hanging.
    const until = Date.now() + 10_000;
    while (seen.length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(seen.length).toBeGreaterThan(before);
    await new Promise((r) => setTimeout(r, 1_500)); // a second poll: every fetch A may have is under way

    const up = await upload(t, b, { filename: 'b.png', contentType: 'image/png', body: await png() });
    expect(up.statusCode).toBe(201);
    const startedAt = Date.now();
    const theirs = await start(t, b, up.json().id);
    expect(theirs.statusCode).toBe(202);
    const ended = await t.ctx.services.tools!.events.waitForEnd(theirs.json().job_id, 20_000);
    const waited = Date.now() - startedAt;
    expect(ended.status).toBe('succeeded');
    expect(waited).toBeLessThan(6_000);
    // A never had more than one fetch in flight, and none of A's runs took the run slot.
    expect(seen.length - before).toBe(1);
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tool_jobs WHERE user_id = $1 AND status = 'queued'`, [a.id]);
    expect(n).toBe(6);
  }, 60_000);

  it('a source that answers is fetched once, before the run, and the run reads what was fetched', async () => {
    const c = await registerUser(t, { energy: 10 });
    const before = seen.length;
    const url = `http://127.0.0.1:${port}/good-1.png`;
    const res = await start(t, c, url);
    expect(res.statusCode).toBe(202);
    const ended = await t.ctx.services.tools!.events.waitForEnd(res.json().job_id, 30_000);
    expect(ended.status).toBe('succeeded');
    expect(ended.result).toMatchObject({ original_url: url });
    expect(seen.length - before).toBe(1);
    // What was kept for the run is gone with it.
    const kept = await t.ctx.services.library.storage.head(`${c.id}/sources/${ended.id}`);
    expect(kept).toBeNull();
  }, 60_000);
});

describe("a run's URL source is fetched under a short deadline", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      { FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}`, SOURCE_FETCH_TIMEOUT_SECONDS: '2', DATA_DIR: tempDir('pr-fair-deadline-') },
      { provider: createFakeAiProvider({ delayMs: 0 }), concurrency: 2, perUserConcurrency: 2, maxAttempts: 1 },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a hanging source is given up after SOURCE_FETCH_TIMEOUT_SECONDS, refunded', async () => {
    const a = await registerUser(t, { energy: 10 });
    const before = seen.length;
    const res = await start(t, a, `http://127.0.0.1:${port}/deadline.png`);
    expect(res.statusCode).toBe(202);
    const ended = await t.ctx.services.tools!.events.waitForEnd(res.json().job_id, 15_000);
    expect(ended.status).toBe('failed');
    const req = seen[before]!;
    expect(req.closedAt).toBeDefined();
    const held = req.closedAt! - req.at;
    expect(held).toBeGreaterThanOrEqual(1_500);
    expect(held).toBeLessThan(4_500);
    const [{ balance }] = await t.db.query<{ balance: number }>('SELECT energy_balance AS balance FROM user_profiles WHERE id = $1', [a.id]);
    expect(balance).toBe(10);
  }, 60_000);
});
